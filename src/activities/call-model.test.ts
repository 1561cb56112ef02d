import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ApiError, type Content, type GenerateContentParameters, type GenerateContentResponse } from '@google/genai';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import type { StreamChunk } from '../core/assemble-turn';
import { isBlobMarker } from '../core/blob-marker';
import { MODEL_ERROR_TYPES } from '../core/model-error-types';
import type { ModelTurn, NewPart } from '../core/types';
import { FileTranscriptStore } from '../store/file-store';
import { callModel, type CallModelInput, type ModelSeam } from './call-model';

/** What the model was sent, as plain JSON (the abort signal left out). */
interface RecordedRequest {
  model: string;
  contents: Content[];
  systemInstruction: string;
  declarationNames: string[];
}

/** A scripted model seam: one entry per call (stream chunks or an error), strict about extra calls. */
function fakeModel(script: (StreamChunk[] | Error)[]) {
  const requests: RecordedRequest[] = [];
  const models: ModelSeam = {
    async generateContent() {
      throw new Error('callModel must stream');
    },
    async generateContentStream(req: GenerateContentParameters) {
      const tools = (req.config?.tools ?? []) as { functionDeclarations?: { name: string }[] }[];
      requests.push(
        JSON.parse(
          JSON.stringify({
            model: req.model,
            contents: req.contents,
            systemInstruction: req.config?.systemInstruction,
            declarationNames: tools.flatMap((t) => (t.functionDeclarations ?? []).map((d) => d.name)),
          }),
        ),
      );
      const next = script.shift();
      if (next === undefined) throw new Error(`unexpected model call #${requests.length}`);
      if (next instanceof Error) throw next;
      return (async function* () {
        for (const chunk of next) yield chunk as GenerateContentResponse;
      })();
    },
  };
  return { models, requests, leftover: () => script.length };
}

const text = (t: string, finishReason?: string): StreamChunk => ({ candidates: [{ content: { parts: [{ text: t }] }, finishReason }] });
const call = (name: string, args: Record<string, unknown>): StreamChunk => ({
  candidates: [{ content: { parts: [{ functionCall: { name, args } }] }, finishReason: 'STOP' }],
});

let storeDir: string;
let store: FileTranscriptStore;

beforeEach(async () => {
  storeDir = await fs.mkdtemp(path.join(os.tmpdir(), 'da-call-model-'));
  store = new FileTranscriptStore(storeDir);
});

afterEach(() => fs.rm(storeDir, { recursive: true, force: true }));

const input = (over: Partial<CallModelInput> = {}): CallModelInput => ({
  transcriptId: 'tx',
  baseLength: 0,
  append: [{ kind: 'text', text: 'hello' }],
  model: 'gemini-test',
  workspace: '/work/space/project',
  toolNames: ['read_file', 'run_shell_command'],
  turn: 1,
  ...over,
});

/** The failures below are expected: the worker's "Activity failed" warning would only be noise. */
function run(models: ModelSeam, callInput: CallModelInput): Promise<ModelTurn> {
  const env = new MockActivityEnvironment(undefined, { logger: new DefaultLogger('ERROR') });
  return env.run(callModel, { models, store }, callInput);
}

async function failureOf(promise: Promise<unknown>): Promise<ApplicationFailure> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApplicationFailure);
  return err as ApplicationFailure;
}

describe('callModel', () => {
  it('sends the stored transcript plus the new user message built from append', async () => {
    const earlier: Content[] = [
      { role: 'user', parts: [{ text: 'read a.txt' }] },
      { role: 'model', parts: [{ functionCall: { id: 'call_1_0', name: 'read_file', args: { file_path: 'a.txt' } } }] },
    ];
    for (const [i, message] of earlier.entries()) await store.writeMessage('tx', i, message);
    const responseRef = await store.putBlob(JSON.stringify({ output: 'body of a.txt' }));
    const append: NewPart[] = [
      { kind: 'functionResponse', callId: 'call_1_0', name: 'read_file', responseRef },
      { kind: 'functionResponse', callId: 'call_1_1', name: 'write_file', response: { error: 'denied' } },
      { kind: 'text', text: 'and now?' },
    ];
    const fake = fakeModel([[text('It says '), text('hi.', 'STOP')]]);
    const turn = await run(fake.models, input({ baseLength: 2, append, turn: 2 }));

    const userMessage: Content = {
      role: 'user',
      parts: [
        { functionResponse: { id: 'call_1_0', name: 'read_file', response: { output: 'body of a.txt' } } },
        { functionResponse: { id: 'call_1_1', name: 'write_file', response: { error: 'denied' } } },
        { text: 'and now?' },
      ],
    };
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({ model: 'gemini-test', contents: [...earlier, userMessage] });
    expect(turn).toMatchObject({ text: 'It says hi.', finishReason: 'STOP', model: 'gemini-test', transcriptLength: 4 });
    const fresh = new FileTranscriptStore(storeDir);
    expect(await fresh.readMessages('tx', 4)).toEqual([...earlier, userMessage, { role: 'model', parts: [{ text: 'It says hi.' }] }]);
  });

  it('writes the model turn at baseLength when there is nothing to append', async () => {
    await store.writeMessage('tx', 0, { role: 'user', parts: [{ text: 'hi' }] });
    const fake = fakeModel([[text('again', 'STOP')]]);
    const turn = await run(fake.models, input({ baseLength: 1, append: [] }));
    expect(fake.requests[0].contents).toEqual([{ role: 'user', parts: [{ text: 'hi' }] }]);
    expect(turn.transcriptLength).toBe(2);
    expect((await store.readMessages('tx', 2))[1]).toEqual({ role: 'model', parts: [{ text: 'again' }] });
  });

  it('returns large function-call arguments as blob markers, keeping the full text in the store', async () => {
    const content = 'y'.repeat(10_000);
    const fake = fakeModel([[call('write_file', { file_path: 'big.txt', content })]]);
    const turn = await run(fake.models, input({ turn: 3 }));
    const [fc] = turn.functionCalls;
    expect(fc).toMatchObject({ id: 'call_3_0', name: 'write_file', args: { file_path: 'big.txt' } });
    expect(isBlobMarker(fc.args.content)).toBe(true);
    expect(JSON.stringify(turn).length).toBeLessThan(2000);
    const marker = fc.args.content as { $blob: string };
    expect(await new FileTranscriptStore(storeDir).getBlob(marker.$blob)).toBe(content);
    const [, modelMessage] = await store.readMessages('tx', 2);
    expect(modelMessage.parts?.[0].functionCall?.args).toEqual({ file_path: 'big.txt', content });
  });

  it('retries an empty stream inside the activity and keeps only the good attempt', async () => {
    const fake = fakeModel([[], [{ candidates: [{ content: { parts: [{ text: 'second' }] }, finishReason: 'STOP' }] }]]);
    const turn = await run(fake.models, input());
    expect(turn.text).toBe('second');
    expect(fake.requests).toHaveLength(2);
  }, 20_000);

  it('ends with a non-retryable invalid-stream failure after 4 invalid streams, recording no model turn', async () => {
    const fake = fakeModel([[], [], [], []]);
    const failure = await failureOf(run(fake.models, input()));
    expect(failure.type).toBe(MODEL_ERROR_TYPES.invalidStream);
    expect(failure.nonRetryable).toBe(true);
    expect(fake.requests).toHaveLength(4);
    await expect(store.readMessages('tx', 2)).rejects.toThrow(/has no message 1/);
  }, 20_000);

  it('turns an API 400 into a non-retryable bad-request failure', async () => {
    const fake = fakeModel([new ApiError({ message: 'Invalid JSON payload', status: 400 })]);
    const failure = await failureOf(run(fake.models, input()));
    expect(failure.type).toBe(MODEL_ERROR_TYPES.badRequest);
    expect(failure.nonRetryable).toBe(true);
    expect(failure.message).toContain('Invalid JSON payload');
  });

  it('tells the model its workspace and declares only the requested tools', async () => {
    const fake = fakeModel([[text('ok', 'STOP')]]);
    await run(fake.models, input({ toolNames: ['read_file', 'glob', 'no_such_tool'] }));
    const [request] = fake.requests;
    expect(request.systemInstruction).toContain('/work/space/project');
    expect(request.declarationNames).toEqual(['read_file', 'glob']);
    expect(fake.leftover()).toBe(0);
  });
});
