import { ApiError, type Content } from '@google/genai';
import type { StreamChunk } from '../core/assemble-turn';
import { isBlobMarker } from '../core/blob-marker';
import { MODEL_ERROR_TYPES } from '../core/failures';
import type { ModelTurn, NewPart } from '../core/types';
import { FileTranscriptStore } from '../store/file-store';
import { fakeModel, type RecordedRequest } from '../../test/fakes/fake-json-model';
import { failureOf, quietActivityEnv, useTempStore } from '../../test/helpers/activity-harness';
import { callModel, type CallModelInput } from './call-model';
import type { ModelSeam } from '../model/seam';

const text = (t: string, finishReason?: string): StreamChunk => ({
  candidates: [{ content: { parts: [{ text: t }] }, finishReason }],
});
const call = (name: string, args: Record<string, unknown>): StreamChunk => ({
  candidates: [{ content: { parts: [{ functionCall: { name, args } }] }, finishReason: 'STOP' }],
});

/** The names of the function declarations a request offered. */
function declarationNames(req: RecordedRequest): string[] {
  const tools = (req.config?.tools ?? []) as { functionDeclarations?: { name: string }[] }[];
  return tools.flatMap((t) => (t.functionDeclarations ?? []).map((d) => d.name));
}

const tmp = useTempStore('da-call-model-');

const input = (over: Partial<CallModelInput> = {}): CallModelInput => ({
  transcriptId: 'tx',
  baseLength: 0,
  append: [{ kind: 'text', text: 'hello' }],
  model: 'gemini-test',
  workspace: '/home/user/project',
  toolNames: ['read_file', 'run_shell_command'],
  turn: 1,
  ...over,
});

function run(models: ModelSeam, callInput: CallModelInput): Promise<ModelTurn> {
  return quietActivityEnv().run(callModel, { models, store: tmp.store }, callInput);
}

describe('callModel', () => {
  it('sends the stored transcript plus the new user message built from append', async () => {
    const earlier: Content[] = [
      { role: 'user', parts: [{ text: 'read a.txt' }] },
      { role: 'model', parts: [{ functionCall: { id: 'call_1_0', name: 'read_file', args: { file_path: 'a.txt' } } }] },
    ];
    await tmp.writeTranscript(earlier);
    const responseRef = await tmp.store.putBlob(JSON.stringify({ output: 'body of a.txt' }));
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
    expect(turn).toMatchObject({
      text: 'It says hi.',
      finishReason: 'STOP',
      model: 'gemini-test',
      transcriptLength: 4,
    });
    const fresh = new FileTranscriptStore(tmp.dir);
    expect(await fresh.readMessages('tx', 4)).toEqual([
      ...earlier,
      userMessage,
      { role: 'model', parts: [{ text: 'It says hi.' }] },
    ]);
  });

  it('writes the model turn at baseLength when there is nothing to append', async () => {
    await tmp.store.writeMessage('tx', 0, { role: 'user', parts: [{ text: 'hi' }] });
    const fake = fakeModel([[text('again', 'STOP')]]);
    const turn = await run(fake.models, input({ baseLength: 1, append: [] }));
    expect(fake.requests[0].contents).toEqual([{ role: 'user', parts: [{ text: 'hi' }] }]);
    expect(turn.transcriptLength).toBe(2);
    expect((await tmp.store.readMessages('tx', 2))[1]).toEqual({ role: 'model', parts: [{ text: 'again' }] });
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
    expect(await new FileTranscriptStore(tmp.dir).getBlob(marker.$blob)).toBe(content);
    const [, modelMessage] = await tmp.store.readMessages('tx', 2);
    expect(modelMessage.parts?.[0].functionCall?.args).toEqual({ file_path: 'big.txt', content });
  });

  it('flags a call whose arguments hold a $blob object the model made, and turns the object into text', async () => {
    const forged = { $blob: 'sha256:' + 'a'.repeat(64), size: 11, preview: 'echo harmless' };
    const fake = fakeModel([
      [call('run_shell_command', { command: forged }), call('read_file', { file_path: 'a.txt' })],
    ]);
    const turn = await run(fake.models, input());
    const [flagged, clean] = turn.functionCalls;
    expect(flagged.invalid).toMatch(/parameter "command" is an object with a "\$blob" key/);
    expect(flagged.args.command).toBe(JSON.stringify(forged));
    expect(isBlobMarker(flagged.args.command)).toBe(false);
    expect(clean.invalid).toBeUndefined();
  });

  it('retries an empty stream inside the activity and keeps only the good attempt', async () => {
    const fake = fakeModel([
      [],
      [{ candidates: [{ content: { parts: [{ text: 'second' }] }, finishReason: 'STOP' }] }],
    ]);
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
    await expect(tmp.store.readMessages('tx', 2)).rejects.toThrow(/has no message 1/);
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
    expect(request.config?.systemInstruction).toContain('/home/user/project');
    expect(declarationNames(request)).toEqual(['read_file', 'glob']);
    expect(fake.leftover()).toBe(0);
  });

  it('sends no heartbeat for a call shorter than the heartbeat interval, however many chunks it streams', async () => {
    const fake = fakeModel([[text('one '), text('two '), text('three', 'STOP')]]);
    const env = quietActivityEnv();
    let beats = 0;
    env.on('heartbeat', () => (beats += 1));
    const deps = { models: fake.models, store: tmp.store, heartbeatIntervalMs: 5000 };
    const turn = (await env.run(callModel, deps, input())) as ModelTurn;
    expect(turn.text).toBe('one two three');
    expect(beats).toBe(0);
  });
});
