export { runFakeGeminiCommand, type FakeGeminiCommandOptions } from './command';
export {
  errorLine,
  functionCallResponse,
  loadScriptFile,
  parseScript,
  ScriptParseError,
  streamLine,
  textResponse,
  toJsonl,
  type FunctionCallSpec,
  type LineOptions,
  type ResponseJson,
  type ScriptError,
  type ScriptLine,
  type ScriptMethod,
} from './script';
export { FakeGeminiServer, type FakeGeminiOptions, type RecordedRequest, type UnexpectedCall } from './server';
