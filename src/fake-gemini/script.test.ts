import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  errorLine,
  functionCallResponse,
  loadScriptFile,
  parseScript,
  ScriptParseError,
  streamLine,
  textResponse,
  toJsonl,
} from './script';

const recorded = [
  '{"method":"generateContentStream","response":[{"candidates":[{"content":{"role":"model",' +
    '"parts":[{"text":"Hi"}]},"finishReason":"STOP","index":0}],"usageMetadata":{"totalTokenCount":3}}]}',
  '',
  '{"method":"countTokens","response":{"totalTokens":7,"cachedContentTokenCount":0}}',
  '   ',
  '{"method":"generateContent","error":{"code":429,"status":"RESOURCE_EXHAUSTED","message":"slow"},' + '"delayMs":5}',
].join('\n');

function parseError(text: string): ScriptParseError {
  try {
    parseScript(text, 'demo.jsonl');
  } catch (err) {
    if (err instanceof ScriptParseError) return err;
    throw err;
  }
  throw new Error('expected a parse error');
}

describe('parseScript', () => {
  it('parses Gemini CLI lines and our extensions, skipping blank lines', () => {
    const lines = parseScript(`${recorded}\r\n`);
    const methods = lines.map((line) => line.method);
    expect(methods).toEqual(['generateContentStream', 'countTokens', 'generateContent']);
    expect(lines[1].response).toEqual({ totalTokens: 7, cachedContentTokenCount: 0 });
    expect(lines[2]).toMatchObject({ error: { code: 429, status: 'RESOURCE_EXHAUSTED' }, delayMs: 5 });
  });

  it.each([
    ['{"method":"generateContent","response":', /demo\.jsonl line 3: invalid JSON/],
    ['{"method":"embed","response":{}}', /line 3: method: .*generateContentStream/],
    ['{"method":"generateContent"}', /line 3: .*needs "response" or "error"/],
    ['{"method":"generateContentStream","response":{}}', /line 3: response: .*expected array/],
    ['{"method":"countTokens","response":{},"delayMS":1}', /line 3: .*Unrecognized key: "delayMS"/],
    ['{"method":"countTokens","response":{},"dropAfterChunks":1}', /line 3: .*dropAfterChunks/],
    ['{"method":"countTokens","error":{"code":200,"status":"OK","message":""}}', /line 3: error\.code/],
  ])('names the line of a bad entry: %s', (bad, message) => {
    const error = parseError(`{"method":"countTokens","response":{}}\n\n${bad}`);
    expect(error.line).toBe(3);
    expect(error.message).toMatch(message);
  });

  it('names the file when loading from disk', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fake-gemini-'));
    const path = join(dir, 'broken.jsonl');
    await writeFile(path, '{"method":"countTokens","response":{}}\nnot json\n');
    await expect(loadScriptFile(path)).rejects.toThrow(`${path} line 2: invalid JSON`);
  });
});

describe('line helpers', () => {
  it('round-trip through toJsonl and parseScript', () => {
    const lines = [
      textResponse('Hello', { delayMs: 10 }),
      functionCallResponse({ name: 'read_file', args: { file_path: 'a.txt' } }),
      functionCallResponse([{ name: 'ls' }, { name: 'glob', args: { pattern: '*.ts' } }]),
      streamLine([{ candidates: [] }], { dropAfterChunks: 1 }),
      errorLine(503, 'UNAVAILABLE', 'overloaded', 'generateContent'),
    ];
    expect(parseScript(toJsonl(lines))).toEqual(lines);
  });

  it('builds chunks shaped like recorded Gemini responses', () => {
    const line = functionCallResponse([{ name: 'ls' }, { name: 'glob', args: { pattern: '*' } }]);
    expect(line.response).toEqual([
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                { functionCall: { name: 'ls', args: {} } },
                { functionCall: { name: 'glob', args: { pattern: '*' } } },
              ],
            },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 10, totalTokenCount: 20 },
      },
    ]);
  });
});
