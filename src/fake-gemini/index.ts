export { runFakeGeminiCommand, type FakeGeminiCommandOptions } from './command';
export {
  errorLine,
  functionCallResponse,
  groundedResponse,
  loadScriptFile,
  parseScript,
  ScriptParseError,
  streamLine,
  textResponse,
  toJsonl,
  type AnswerMetadata,
  type FunctionCallSpec,
  type LineOptions,
  type ResponseJson,
  type ScriptError,
  type ScriptLine,
  type ScriptMethod,
} from './script';
export { FakeGeminiServer, type FakeGeminiOptions, type RecordedRequest, type UnexpectedCall } from './server';
