import type { WorkflowFailedError, WorkflowHandle } from '@temporalio/client';
import { functionCallResponse, streamLine, textResponse, type ScriptLine } from '../../src/fake-gemini';
import { statusQuery, loopDecisionSignal } from '../../src/workflows/api';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, maybeRecordHistory, type Harness } from '../helpers/agent-harness';

type Sent = { contents: { role: string; parts: { text?: string; functionResponse?: unknown }[] }[] };

let h: Harness;
beforeAll(async () => {
  h = await createHarness('loops');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

const sameRead = () => functionCallResponse({ name: 'read_file', args: { file_path: 'a.txt' } });
const lastUserParts = (i: number) => (h.fake.requests[i].body as Sent).contents.at(-1)!.parts;
const loopEvents = (events: { type: string }[]) =>
  events.filter((e) => e.type === 'loop_detected') as unknown as { kind: string; final: boolean }[];
const judge = (confidence: number): ScriptLine => ({
  method: 'generateContent',
  response: {
    candidates: [
      {
        content: {
          role: 'model',
          parts: [
            {
              text: JSON.stringify({
                unproductive_state_analysis: 'same file again and again',
                unproductive_state_confidence: confidence,
              }),
            },
          ],
        },
        finishReason: 'STOP',
      },
    ],
  },
});

async function waitForPhase(handle: WorkflowHandle, phase: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ((await handle.query(statusQuery)).phase === phase) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`never reached phase ${phase}`);
}

test(
  'the 5th identical call is a loop: the turn is dropped and the recovery message sent, with 6 model calls as ' +
    'Gemini CLI',
  async () => {
    const ws = h.workspace({ 'a.txt': 'A' });
    const run = await h.run(
      [sameRead(), sameRead(), sameRead(), sameRead(), sameRead(), textResponse('Changing approach.')],
      { workspace: ws },
    );
    expect(run.result?.response).toBe('Changing approach.');
    expect(h.fake.requests).toHaveLength(6);
    const parts = lastUserParts(5);
    expect(parts[0].functionResponse).toBeDefined();
    expect(parts.at(-1)!.text).toMatch(/^System: Potential loop detected\. Details: .*read_file/);
    expect(loopEvents(run.events)).toEqual([expect.objectContaining({ kind: 'tool_call_loop', final: false })]);
    expect(run.status.stats?.toolCalls.total).toBe(4);
    await maybeRecordHistory(h, run.workflowId, 'loop-recovered');
  },
);

test('a second detection pauses the prompt; `stop` ends it in the loop-detected state', async () => {
  const ws = h.workspace({ 'a.txt': 'A' });
  const handle = await h.start([sameRead(), sameRead(), sameRead(), sameRead(), sameRead(), sameRead()], {
    workspace: ws,
  });
  await waitForPhase(handle, 'loop_detected');
  await handle.signal(loopDecisionSignal, { action: 'bogus' });
  await handle.signal(loopDecisionSignal, 'stop');
  const run = await h.finish(handle);
  expect((run.error as WorkflowFailedError).cause?.message).toMatch(/kept repeating/);
  expect(run.status).toMatchObject({ status: 'failed', error: { type: 'LoopDetected' } });
  expect(loopEvents(run.events).map((e) => e.final)).toEqual([false, true]);
  expect(
    run.events.some((e) => e.type === 'warning' && /loopDecision ignored/.test((e as { message: string }).message)),
  ).toBe(true);
  expect(h.fake.requests).toHaveLength(6);
});

test('a person can tell a flagged prompt to go on without detection', async () => {
  const ws = h.workspace({ 'a.txt': 'A' });
  const handle = await h.start(
    [
      sameRead(),
      sameRead(),
      sameRead(),
      sameRead(),
      sameRead(),
      sameRead(),
      sameRead(),
      textResponse('done after all'),
    ],
    { workspace: ws },
  );
  await waitForPhase(handle, 'loop_detected');
  await handle.signal(loopDecisionSignal, { action: 'disable' });
  const run = await h.finish(handle);
  expect(run.result?.response).toBe('done after all');
  expect(h.fake.requests).toHaveLength(8);
});

test('detection can be turned off for a run', async () => {
  const ws = h.workspace({ 'a.txt': 'A' });
  const run = await h.run(
    [sameRead(), sameRead(), sameRead(), sameRead(), sameRead(), sameRead(), textResponse('fine')],
    { workspace: ws, loopDetection: false },
  );
  expect(run.result?.response).toBe('fine');
  expect(loopEvents(run.events)).toEqual([]);
});

test('chanting content is a loop too', async () => {
  const chant = 'I will now check the configuration file once more. '.repeat(12);
  const chunk = { candidates: [{ content: { role: 'model', parts: [{ text: chant }] }, finishReason: 'STOP' }] };
  const run = await h.run([streamLine([chunk]), textResponse('Stopping the repetition.')]);
  expect(run.result?.response).toBe('Stopping the repetition.');
  expect(loopEvents(run.events)).toEqual([expect.objectContaining({ kind: 'content_loop' })]);
  expect(h.fake.requests).toHaveLength(2);
});

describe('a chanting stream', () => {
  const sentence = 'I will now check the configuration file once more. ';
  const chanting = (chunks: number) =>
    streamLine(
      Array.from({ length: chunks }, (_, i) => ({
        candidates: [
          {
            content: { role: 'model', parts: [{ text: sentence }] },
            ...(i === chunks - 1 ? { finishReason: 'STOP' } : {}),
          },
        ],
      })),
      { delayMs: 20 },
    );

  test('is cut inside the model call as soon as the loop shows, and recovered from as before', async () => {
    const run = await h.run([chanting(150), textResponse('Stopping the repetition.')]);
    expect(run.result?.response).toBe('Stopping the repetition.');
    expect(loopEvents(run.events)).toEqual([expect.objectContaining({ kind: 'content_loop', final: false })]);
    // Ten repeats of a 50-character window make the loop; the model was not left to send all 150.
    expect(h.fake.requests[0].chunksSent).toBeLessThan(20);
    expect(lastUserParts(1).at(-1)?.text).toContain('Potential loop detected');
    expect(run.events.some((e) => e.type === 'content' && (e as { text: string }).text.includes(sentence))).toBe(false);
  });

  test('is read to its end when loop detection is off', async () => {
    const run = await h.run([chanting(30)], { loopDetection: false });
    expect(h.fake.requests[0].chunksSent).toBe(30);
    expect(run.result?.response).toBe(sentence.repeat(30));
    expect(loopEvents(run.events)).toEqual([]);
  });
});

describe('the LLM loop check from the 30th model request', () => {
  const reads = (n: number) =>
    Array.from({ length: n }, (_, i) => functionCallResponse({ name: 'glob', args: { pattern: `*.${i}` } }));

  test('a confident fast judge confirmed by the strong one is a loop: 2 extra generateContent calls', async () => {
    const run = await h.run([...reads(29), judge(0.95), judge(0.97), textResponse('rethinking')]);
    expect(run.result?.response).toBe('rethinking');
    const methods = h.fake.requests.map((r) => r.method);
    expect(methods.filter((m) => m === 'generateContent')).toHaveLength(2);
    expect(methods.slice(29, 31)).toEqual(['generateContent', 'generateContent']);
    expect(h.fake.requests[29].model).toBe('gemini-3-flash-preview');
    expect(h.fake.requests[30].model).toBe('gemini-3.1-pro-preview');
    expect(lastUserParts(31).at(-1)!.text).toMatch(/Potential loop detected/);
    expect(loopEvents(run.events)).toEqual([expect.objectContaining({ kind: 'llm_loop' })]);
  });

  test('an unsure fast judge costs one call and no loop', async () => {
    const run = await h.run([...reads(29), judge(0.3), textResponse('carry on')]);
    expect(run.result?.response).toBe('carry on');
    expect(h.fake.requests.filter((r) => r.method === 'generateContent')).toHaveLength(1);
    expect(loopEvents(run.events)).toEqual([]);
  });
});
