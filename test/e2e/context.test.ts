import type { WorkflowFailedError, WorkflowHandle } from '@temporalio/client';
import { functionCallResponse, streamLine, textResponse, type ScriptLine } from '../../src/fake-gemini';
import { statusQuery, compressSignal, topUpBudgetSignal } from '../../src/workflows/api';
import { closeTestEnv } from '../helpers/temporal-env';
import { earlierConversation } from '../helpers/earlier-conversation';
import { createHarness, maybeRecordHistory, type Harness } from '../helpers/agent-harness';

type Sent = {
  contents: { role: string; parts: { text?: string; functionResponse?: { response: { output?: string } } }[] }[];
};

let h: Harness;
beforeAll(async () => {
  h = await createHarness('context');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

const json = (text: string): ScriptLine => ({
  method: 'generateContent',
  response: { candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP' }] },
});
/** A call whose response reports `promptTokens` used: what drives compression and the overflow check. */
const callUsing = (promptTokens: number, name: string, args: Record<string, unknown>) =>
  streamLine([
    {
      candidates: [{ content: { role: 'model', parts: [{ functionCall: { name, args } }] }, finishReason: 'STOP' }],
      usageMetadata: { promptTokenCount: promptTokens, candidatesTokenCount: 5, totalTokenCount: promptTokens + 5 },
    },
  ]);
const SNAPSHOT = '<state_snapshot>\n<overall_goal>finish the refactor</overall_goal>\n</state_snapshot>';

test('past half the context window the history is compressed into a snapshot: 2 extra model calls', async () => {
  const id = `conv-${Date.now()}`;
  const length = await earlierConversation(h, id);
  const ws = h.workspace({ 'a.txt': 'A' });
  const script = [
    callUsing(600_000, 'read_file', { file_path: 'a.txt' }),
    json(`draft ${SNAPSHOT}`),
    json(SNAPSHOT),
    textResponse('continuing from the snapshot'),
  ];
  const run = await h.run(script, { workspace: ws, transcript: { id, length } });
  expect(run.result?.response).toBe('continuing from the snapshot');
  expect(h.fake.requests.map((r) => r.method)).toEqual([
    'generateContentStream',
    'generateContent',
    'generateContent',
    'generateContentStream',
  ]);
  const compressed = run.events.find((e) => e.type === 'chat_compressed') as unknown as {
    status: string;
    originalTokens: number;
    newTokens: number;
  };
  expect(compressed).toMatchObject({ status: 'compressed', originalTokens: 600_000 });
  expect(compressed.newTokens).toBeLessThan(600_000);
  const sent = (h.fake.requests[3].body as Sent).contents;
  expect(sent[0].parts[0].text).toContain('<state_snapshot>');
  expect(sent.length).toBeLessThan(length + 3);
  expect(sent.at(-1)!.parts[0].functionResponse?.response.output).toContain('A');
  await maybeRecordHistory(h, run.workflowId, 'compressed');
});

test('a forced compression whose summary would inflate the history is rejected and the history kept', async () => {
  const id = `conv-${Date.now()}`;
  const length = await earlierConversation(h, id);
  const bloated = `<state_snapshot>${'far too long '.repeat(20_000)}</state_snapshot>`;
  const handle = await h.start(
    [
      functionCallResponse({ name: 'run_shell_command', args: { command: 'sleep 1' } }),
      json(bloated),
      json(bloated),
      textResponse('kept going'),
    ],
    { transcript: { id, length } },
  );
  // Asked for while the shell command runs, so that it applies before the second request.
  for (let i = 0; i < 200 && !(await handle.query(statusQuery)).toolCalls.some((c) => c.status === 'executing'); i++)
    await new Promise((r) => setTimeout(r, 25));
  await handle.signal(compressSignal);
  const run = await h.finish(handle);
  expect(run.result?.response).toBe('kept going');
  expect(run.events.find((e) => e.type === 'chat_compressed')).toMatchObject({
    status: 'compression_failed_inflated_token_count',
  });
  expect((h.fake.requests[3].body as Sent).contents.length).toBe(length + 3);
});

test(
  'a request that cannot fit even after compression ends the prompt in the overflow state without a model ' + 'call',
  async () => {
    const ws = h.workspace({ 'big.txt': `${'x'.repeat(99)}\n`.repeat(390) });
    const run = await h.run([callUsing(1_040_000, 'read_file', { file_path: 'big.txt' }), textResponse('never')], {
      workspace: ws,
    });
    expect(h.fake.requests).toHaveLength(1);
    expect((run.error as WorkflowFailedError).cause?.message).toMatch(/does not fit/);
    expect(run.status.error?.type).toBe('ContextWindowOverflow');
    expect(run.events.some((e) => e.type === 'context_window_will_overflow')).toBe(true);
    const transcript = await h.store.readMessages(run.workflowId, 3);
    expect(transcript[2].parts?.[0].functionResponse?.name).toBe('read_file');
  },
);

async function waitForPhase(handle: WorkflowHandle, phase: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ((await handle.query(statusQuery)).phase === phase) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`never reached ${phase}`);
}

test('a spent token budget pauses the prompt until a top-up, then it goes on', async () => {
  const ws = h.workspace({ 'a.txt': 'A' });
  const read = () => functionCallResponse({ name: 'read_file', args: { file_path: 'a.txt' } });
  const handle = await h.start([read(), read(), textResponse('done')], { workspace: ws, maxTokens: 25 });
  await waitForPhase(handle, 'budget_exhausted');
  expect(h.fake.requests).toHaveLength(2);
  await handle.signal(topUpBudgetSignal, { tokens: -5 });
  await handle.signal(topUpBudgetSignal, { tokens: 1000 });
  const run = await h.finish(handle);
  expect(run.result?.response).toBe('done');
  expect(run.events.filter((e) => e.type === 'budget_exhausted')).toHaveLength(1);
  expect(
    run.events.some((e) => e.type === 'warning' && /topUpBudget ignored/.test((e as { message: string }).message)),
  ).toBe(true);
  expect(run.status.stats?.usage.total).toBeGreaterThan(25);
});

test('a stop answers a spent budget: the prompt ends as it stands, its calls all answered', async () => {
  const ws = h.workspace({ 'a.txt': 'A' });
  const handle = await h.start(
    [functionCallResponse({ name: 'read_file', args: { file_path: 'a.txt' } }), textResponse('never')],
    { workspace: ws, maxTokens: 10 },
  );
  await waitForPhase(handle, 'budget_exhausted');
  await handle.signal(topUpBudgetSignal, 'stop');
  const run = await h.finish(handle);
  expect(run.result?.terminateReason).toBe('stopped');
  expect(h.fake.requests).toHaveLength(1);
  expect((await h.store.readMessages(run.workflowId, 3))[2].parts?.[0].functionResponse).toBeDefined();
});

test('old bulky tool outputs are masked in requests, with a reference the model can read back', async () => {
  const ws = h.workspace();
  const big = (i: number) =>
    functionCallResponse({ name: 'run_shell_command', args: { command: `head -c 39000 /dev/zero | tr '\\0' '${i}'` } });
  const script = [...Array.from({ length: 10 }, (_, i) => big(i)), textResponse('summarised')];
  const run = await h.run(script, { workspace: ws });
  expect(run.result?.response).toBe('summarised');
  const last = JSON.stringify(h.fake.requests[10].body);
  const ref = /stored as (sha256:[0-9a-f]{64})/.exec(last)?.[1];
  expect(ref).toBeDefined();
  const full = await h.store.getBlob(ref!);
  expect(full.length).toBeGreaterThan(39_000);
  const again = await h.run(
    [functionCallResponse({ name: 'read_tool_output', args: { ref, offset: 1000, limit: 500 } }), textResponse('read')],
    { workspace: ws },
  );
  expect(again.result?.response).toBe('read');
  expect(JSON.stringify(h.fake.requests[1].body)).toContain(full.slice(1000, 1500));
});

describe('compression outcomes without a summary call', () => {
  test('nothing to do: over the threshold but no plain user message to split at, no model call', async () => {
    const ws = h.workspace({ 'a.txt': 'A' });
    const run = await h.run([callUsing(600_000, 'read_file', { file_path: 'a.txt' }), textResponse('fine')], {
      workspace: ws,
    });
    expect(run.result?.response).toBe('fine');
    expect(h.fake.requests.map((r) => r.method)).toEqual(['generateContentStream', 'generateContentStream']);
    expect(run.events.find((e) => e.type === 'chat_compressed')).toMatchObject({ status: 'noop' });
  });

  test('after a rejected summary, the next compression truncates old tool outputs instead: no model call', async () => {
    const id = `conv-${Date.now()}`;
    const length = await earlierConversation(h, id);
    const bulky = 'y'.repeat(80_000);
    for (let i = 0; i < 4; i++) {
      await h.store.writeMessage(id, length + i * 2, {
        role: 'model',
        parts: [{ functionCall: { id: `old${i}`, name: 'read_file', args: { file_path: `f${i}` } } }],
      });
      await h.store.writeMessage(id, length + i * 2 + 1, {
        role: 'user',
        parts: [{ functionResponse: { id: `old${i}`, name: 'read_file', response: { output: bulky } } }],
      });
    }
    // Larger than the 530,000 tokens it would replace: the unforced attempt is rejected as inflated.
    const bloated = `<state_snapshot>${'far too long '.repeat(170_000)}</state_snapshot>`;
    const script = [
      callUsing(530_000, 'run_shell_command', { command: 'true' }),
      json(bloated),
      json(bloated),
      callUsing(530_000, 'run_shell_command', { command: 'true' }),
      textResponse('lighter now'),
    ];
    const run = await h.run(script, { transcript: { id, length: length + 8 } });
    expect(run.result?.response).toBe('lighter now');
    const statuses = run.events
      .filter((e) => e.type === 'chat_compressed')
      .map((e) => (e as { status: string }).status);
    expect(statuses).toEqual(['compression_failed_inflated_token_count', 'content_truncated']);
    expect(h.fake.requests.map((r) => r.method)).toEqual([
      'generateContentStream',
      'generateContent',
      'generateContent',
      'generateContentStream',
      'generateContentStream',
    ]);
    const ys = (i: number) => (JSON.stringify(h.fake.requests[i].body).match(/y/g) ?? []).length;
    // The newest outputs within the 50,000-token budget stay whole; the older two shrink to 40,000 characters.
    expect(ys(4)).toBeLessThan(260_000);
  });
});
