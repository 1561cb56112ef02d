import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { ApiError, GoogleGenAI, type GenerateContentResponse } from '@google/genai';
import { runFakeGeminiCommand } from './command';
import { errorLine, functionCallResponse, streamLine, textResponse, toJsonl, type ScriptLine } from './script';
import { FakeGeminiServer } from './server';

const API_KEY = 'secret-test-key-123';
const model = 'gemini-2.5-flash';
const textChunk = (text: string) => ({
  candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0 }],
});

/** The real SDK with its retries off (`attempts: 1`), so each call is exactly one request. */
function sdk(url: string): GoogleGenAI {
  const httpOptions = { baseUrl: url, retryOptions: { attempts: 1 } };
  return new GoogleGenAI({ apiKey: API_KEY, httpOptions });
}

async function stream(client: GoogleGenAI, seen: GenerateContentResponse[] = []): Promise<GenerateContentResponse[]> {
  const config = { systemInstruction: 'be brief' };
  const chunks = await client.models.generateContentStream({ model, contents: 'hi', config });
  for await (const chunk of chunks) seen.push(chunk);
  return seen;
}

async function apiError(call: Promise<unknown>): Promise<ApiError> {
  const error = await call.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected ApiError, got ${String(error)}`);
  return error;
}

/** Strict mode tests share one server; each loads its own script. */
let server: FakeGeminiServer;
let ai: GoogleGenAI;
beforeAll(async () => {
  server = await FakeGeminiServer.start({ script: [] });
  ai = sdk(server.url);
});
afterAll(() => server.close());

it('streams text and records the request body and model, never the API key', async () => {
  server.load([textResponse('Hello there')]);
  const chunks = await stream(ai);
  expect(chunks.map((c) => c.text)).toEqual(['Hello there']);
  expect(chunks[0].usageMetadata?.totalTokenCount).toBeGreaterThan(0);
  expect(server.requests).toEqual([
    expect.objectContaining({ method: 'generateContentStream', model, time: expect.any(Date) }),
  ]);
  expect(server.requests[0].body).toMatchObject({
    contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
    systemInstruction: { parts: [{ text: 'be brief' }] },
  });
  expect(JSON.stringify(server.requests) + server.report()).not.toContain(API_KEY);
  expect(() => server.assertComplete()).not.toThrow();
});

it('streams several chunks and function calls', async () => {
  const calls = [
    { name: 'read_file', args: { file_path: 'a.txt' } },
    { name: 'ls', args: { dir_path: '.' } },
  ];
  server.load([streamLine([textChunk('Let me '), textChunk('look.')]), functionCallResponse(calls)]);
  expect((await stream(ai)).map((c) => c.text).join('')).toBe('Let me look.');
  const [chunk] = await stream(ai);
  expect(chunk.functionCalls).toEqual(calls);
  server.assertComplete();
});

it('answers generateContent and countTokens', async () => {
  server.load([
    { method: 'generateContent', response: textChunk('{"next_speaker":"user"}') },
    { method: 'countTokens', response: { totalTokens: 42 } },
  ]);
  const routed = await ai.models.generateContent({ model, contents: 'route?' });
  expect(routed.text).toBe('{"next_speaker":"user"}');
  expect((await ai.models.countTokens({ model, contents: 'count me' })).totalTokens).toBe(42);
  expect(server.requests.map((r) => r.method)).toEqual(['generateContent', 'countTokens']);
  server.assertComplete();
});

it('rejects a call out of order with 400, records it and reports the leftover', async () => {
  server.load([textResponse('first')]);
  const error = await apiError(ai.models.generateContent({ model, contents: 'x' }));
  expect(error.status).toBe(400);
  expect(error.message).toContain('fake-gemini: unexpected generateContent call (model gemini-2.5-flash)');
  expect(error.message).toContain('expected generateContentStream (script entry 1 of 1)');
  expect(server.unexpected).toEqual([expect.objectContaining({ method: 'generateContent', model })]);
  expect(server.leftovers()).toEqual([textResponse('first')]);
  expect(server.report()).toMatch(/1 unexpected, 1 of 1 line\(s\) left over\n.*\n {2}leftover: generateContentStream/);
  expect(() => server.assertComplete()).toThrow(/unexpected: fake-gemini: unexpected generateContent/);
});

it('rejects calls once the script is exhausted', async () => {
  server.load([{ method: 'countTokens', response: { totalTokens: 1 } }]);
  await ai.models.countTokens({ model, contents: 'x' });
  const error = await apiError(stream(ai));
  expect(error.status).toBe(400);
  expect(error.message).toContain('the script is exhausted (all 1 line(s) consumed)');
  expect(server.leftovers()).toEqual([]);
  expect(() => server.assertComplete()).toThrow(/1 unexpected/);
});

it.each([
  [errorLine(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded'), 429],
  [errorLine(400, 'INVALID_ARGUMENT', 'Bad schema'), 400],
])('answers an error line with ApiError %#', async (line, status) => {
  server.load([line]);
  const error = await apiError(stream(ai));
  expect(error.status).toBe(status);
  const { message, status: statusText } = line.error as { message: string; status: string };
  expect(JSON.parse(error.message)).toEqual({ error: { code: status, message, status: statusText } });
  server.assertComplete();
});

it('waits delayMs before each chunk', async () => {
  server.load([streamLine([textChunk('a'), textChunk('b')], { delayMs: 150 })]);
  const started = Date.now();
  await stream(ai);
  expect(Date.now() - started).toBeGreaterThanOrEqual(290);
});

it('cuts the connection after dropAfterChunks chunks', async () => {
  server.load([streamLine([textChunk('a'), textChunk('b'), textChunk('c')], { dropAfterChunks: 1 })]);
  const seen: GenerateContentResponse[] = [];
  await expect(stream(ai, seen)).rejects.toThrow();
  expect(seen.map((c) => c.text)).toEqual(['a']);
  expect(server.requests).toHaveLength(1);
});

it('accepts ?key= and unknown routes without recording the key', async () => {
  server.load([]);
  const response = await fetch(`${server.url}/v1/models?key=${API_KEY}`);
  expect(response.status).toBe(400);
  expect(await response.text()).toContain('fake-gemini: unexpected GET /v1/models');
  expect(JSON.stringify(server.requests) + server.report()).not.toContain(API_KEY);
});

describe('FakeGeminiServer (non-strict)', () => {
  it('takes the first remaining line with the requested method', async () => {
    const script: ScriptLine[] = [textResponse('main'), { method: 'generateContent', response: textChunk('util') }];
    const server = await FakeGeminiServer.start({ script, strict: false });
    try {
      const ai = sdk(server.url);
      expect((await ai.models.generateContent({ model, contents: 'x' })).text).toBe('util');
      const error = await apiError(ai.models.countTokens({ model, contents: 'x' }));
      expect(error.message).toContain('remaining lines are for: generateContentStream');
      expect(server.leftovers()).toEqual([textResponse('main')]);
      server.reset();
      expect(server.leftovers()).toHaveLength(2);
      expect(server.requests).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('closes promptly while a stream waits on a delay', async () => {
    const server = await FakeGeminiServer.start({ script: [textResponse('late', { delayMs: 60_000 })] });
    const pending = stream(sdk(server.url));
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const started = Date.now();
    await server.close();
    await expect(pending).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('runFakeGeminiCommand', () => {
  it('prints the URL, serves the script file, and reports leftovers on stop', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fake-gemini-'));
    const scriptPath = join(dir, 'script.jsonl');
    await writeFile(scriptPath, toJsonl([textResponse('one'), textResponse('two')]));
    const [stdout, stderr, stop] = [new PassThrough(), new PassThrough(), new AbortController()];
    const exitCode = runFakeGeminiCommand({ scriptPath, stdout, stderr, signal: stop.signal });
    const url = String(await new Promise((resolve) => stdout.once('data', resolve))).trim();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await stream(sdk(url))).map((c) => c.text)).toEqual(['one']);
    stop.abort();
    expect(await exitCode).toBe(1);
    expect(String(stderr.read())).toMatch(/0 unexpected, 1 of 2 line\(s\) left over\n {2}leftover: .*two/);
  });

  it('fails with the parse error for a bad script', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fake-gemini-'));
    const scriptPath = join(dir, 'bad.jsonl');
    await writeFile(scriptPath, '\n{"method":"stream"}\n');
    const [stdout, stderr] = [new PassThrough(), new PassThrough()];
    expect(await runFakeGeminiCommand({ scriptPath, stdout, stderr })).toBe(1);
    expect(String(stderr.read())).toContain('bad.jsonl line 2: method');
  });
});

describe('FakeGeminiServer (by turn)', () => {
  const turnRequest = (client: GoogleGenAI, modelTurns: number) => {
    const contents = [{ role: 'user', parts: [{ text: 'go' }] }];
    for (let i = 0; i < modelTurns; i++)
      contents.push({ role: 'model', parts: [{ text: `turn ${i}` }] }, { role: 'user', parts: [{ text: 'next' }] });
    return client.models.generateContentStream({ model, contents }).then(async (chunks) => {
      const texts: (string | undefined)[] = [];
      for await (const chunk of chunks) texts.push(chunk.text);
      return texts.join('');
    });
  };

  it('answers a stream request by the number of model turns in it, the same answer when asked again', async () => {
    const util = { method: 'generateContent' as const, response: textChunk('util') };
    const server = await FakeGeminiServer.start({
      script: [textResponse('zero'), util, textResponse('one'), textResponse('two')],
      byTurn: true,
    });
    try {
      const ai = sdk(server.url);
      expect(await turnRequest(ai, 1)).toBe('one');
      expect(await turnRequest(ai, 0)).toBe('zero');
      expect(await turnRequest(ai, 1)).toBe('one');
      expect((await ai.models.generateContent({ model, contents: 'x' })).text).toBe('util');
      expect(server.leftovers()).toEqual([textResponse('two')]);
      expect(await turnRequest(ai, 2)).toBe('two');
      server.assertComplete();
    } finally {
      await server.close();
    }
  });

  it('rejects a turn beyond the script with 400 naming the turn', async () => {
    const server = await FakeGeminiServer.start({ script: [textResponse('zero')], byTurn: true });
    try {
      const error = await apiError(turnRequest(sdk(server.url), 3));
      expect(error.status).toBe(400);
      expect(error.message).toContain('no stream line for model turn 3');
      expect(() => server.assertComplete()).toThrow(/1 unexpected/);
    } finally {
      await server.close();
    }
  });
});

describe('FakeGeminiServer with usageFromRequest', () => {
  it('reports the prompt tokens as the request size / 4 and records the request bytes', async () => {
    const server = await FakeGeminiServer.start({ script: [textResponse('ok')], usageFromRequest: true });
    try {
      const chunks = await stream(sdk(server.url));
      const bytes = server.requests[0].bytes;
      expect(bytes).toBe(Buffer.byteLength(JSON.stringify(server.requests[0].body)));
      expect(chunks.at(-1)?.usageMetadata?.promptTokenCount).toBe(Math.ceil(bytes / 4));
    } finally {
      await server.close();
    }
  });
});
