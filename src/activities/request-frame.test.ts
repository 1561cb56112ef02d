import type { StreamChunk } from '../core/assemble-turn';
import type { ModelTurn } from '../core/types';
import { fakeModel } from '../../test/fakes/fake-json-model';
import { quietActivityEnv, useTempStore } from '../../test/helpers/activity-harness';
import { framedRequest } from '../workflows/state/request-frame';
import { callModel, type CallModelInput, type FramedCallModelInput } from './call-model';

const ok: StreamChunk[] = [{ candidates: [{ content: { parts: [{ text: 'ok' }] }, finishReason: 'STOP' }] }];
const tmp = useTempStore('da-request-frame-');

const request = (turn: number, baseLength: number): CallModelInput => ({
  transcriptId: 'tx',
  baseLength,
  append: [{ kind: 'text', text: `message ${turn}` }],
  model: 'gemini-test',
  workspace: '/home/user/project',
  toolNames: ['read_file', 'invoke_agent'],
  systemPrompt: 'You are a test agent.',
  extraDeclarations: [
    {
      name: 'invoke_agent',
      description: 'Run one of: alpha, beta.',
      parametersJsonSchema: { type: 'object', properties: {} },
    },
  ],
  turn,
});

function run(models: ReturnType<typeof fakeModel>['models'], input: FramedCallModelInput): Promise<ModelTurn> {
  return quietActivityEnv().run(callModel, { models, store: tmp.store }, input);
}

describe('model request frame', () => {
  it('is stored on the first request and read back by reference, giving the model the same request', async () => {
    const fake = fakeModel([ok, ok]);
    const first = await run(fake.models, request(1, 0));
    expect(first.frameRef).toMatch(/^sha256:/);
    const second = framedRequest(
      { json: framedRequest(undefined, request(2, 2)).json, ref: first.frameRef! },
      request(2, 2),
    ).request;
    expect(second).toEqual(expect.objectContaining({ frameRef: first.frameRef }));
    expect(second).not.toHaveProperty('extraDeclarations');
    expect(second).not.toHaveProperty('toolNames');
    const turn = await run(fake.models, second);
    expect(turn.frameRef).toBeUndefined();
    const [a, b] = fake.requests;
    expect(b.config?.systemInstruction).toEqual(a.config?.systemInstruction);
    expect(b.config?.systemInstruction).toContain('You are a test agent.');
    expect(b.config?.tools).toEqual(a.config?.tools);
    expect(JSON.stringify(b.config?.tools)).toContain('Run one of: alpha, beta.');
  });

  it('goes inline again when the frame changes', () => {
    const memo = { json: framedRequest(undefined, request(1, 0)).json, ref: 'sha256:abc' };
    const changed = framedRequest(memo, { ...request(2, 2), toolNames: ['read_file'] }).request;
    expect(changed).not.toHaveProperty('frameRef');
    expect(changed.toolNames).toEqual(['read_file']);
    expect(framedRequest(memo, request(3, 4)).request).toEqual(expect.objectContaining({ frameRef: 'sha256:abc' }));
  });

  it('rejects a request with neither a frame nor a frame reference', async () => {
    const bare: FramedCallModelInput = { ...request(1, 0), workspace: undefined, toolNames: undefined };
    await expect(run(fakeModel([]).models, bare)).rejects.toThrow(/needs either frameRef or workspace and toolNames/);
  });
});
