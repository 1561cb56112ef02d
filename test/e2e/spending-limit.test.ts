import type { WorkflowHandle } from '@temporalio/client';
import type { AgentDefinition } from '../../src/core/agents/definition';
import { generalistAgent } from '../../src/core/agents/builtins';
import { streamLine, textResponse, type ScriptLine } from '../../src/fake-gemini';
import { topUpBudget } from '../../src/client';
import { topUpBudgetSignal } from '../../src/workflows/api';
import { childCostPauseSignal } from '../../src/workflows/spend-signals';
import { closeTestEnv } from '../helpers/temporal-env';
import { waitForPause } from '../helpers/spend-pause';
import { earlierConversation } from '../helpers/earlier-conversation';
import { createHarness, maybeRecordHistory, type Harness } from '../helpers/agent-harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness('spending-limit');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

/** USD per million tokens: a whole answer (65,536 tokens) could cost $0.65536, a 600,000-token prompt $0.06. */
const modelPrices = { 'gemini-test-model': { input: 0.1, cachedInput: 0.01, output: 10, thinking: 10 } };
const helper: AgentDefinition = { ...generalistAgent, name: 'helper', description: 'A test helper.', tools: [] };

/** A function call whose usage report says `prompt` tokens in and `out` tokens out. */
const callWith = (prompt: number, out: number, name: string, args: Record<string, unknown>) =>
  streamLine([
    {
      candidates: [{ content: { role: 'model', parts: [{ functionCall: { name, args } }] }, finishReason: 'STOP' }],
      usageMetadata: { promptTokenCount: prompt, candidatesTokenCount: out, totalTokenCount: prompt + out },
    },
  ]);
const json = (text: string): ScriptLine => ({
  method: 'generateContent',
  response: { candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP' }] },
});
const SNAPSHOT = '<state_snapshot>\n<overall_goal>finish</overall_goal>\n</state_snapshot>';

type Status = Awaited<ReturnType<WorkflowHandle['query']>> & {
  phase: string;
  costLimit?: { limitUsd: number; spentUsd: number; nextRequestUsd?: number };
  toolCalls: { callId: string; name: string }[];
};

test('a prompt with a sub-agent stops before the compression that could cross its limit, and goes on after a top-up', async () => {
  const id = `conv-${Date.now()}`;
  const length = await earlierConversation(h, id);
  const script = [
    // $0.06 + $0.00005: the prompt's first request; compression is due after it (600,000 tokens).
    callWith(600_000, 5, 'invoke_agent', { agent_name: 'helper', prompt: 'look around' }),
    // The sub-agent's one request: $0.0001 + $0.2, charged to its parent when it returns.
    callWith(1000, 20_000, 'complete_task', { result: 'found it' }),
    json(`draft ${SNAPSHOT}`),
    json(SNAPSHOT),
    textResponse('done'),
  ];
  const handle = await h.start(script, {
    transcript: { id, length },
    agents: [helper],
    modelPrices,
    maxCostUsd: 1,
  });
  const paused = await waitForPause<Status>(handle);
  // The compression (two calls of up to 600,000 + 65,536 tokens: $1.43) was not sent.
  expect(h.fake.requests).toHaveLength(2);
  expect(paused.costLimit?.limitUsd).toBe(1);
  expect(paused.costLimit?.spentUsd).toBeCloseTo(0.26015, 5);
  expect(paused.costLimit?.nextRequestUsd).toBeCloseTo(1.43072, 4);
  await handle.signal(topUpBudgetSignal, { usd: -1 });
  await handle.signal(topUpBudgetSignal, { tokens: 1000 });
  await handle.signal(topUpBudgetSignal, { usd: 1 });
  const run = await h.finish(handle);
  expect(run.result?.response).toBe('done');
  expect(run.result?.costLimitUsd).toBe(2);
  expect(h.fake.requests.map((r) => r.method)).toEqual([
    'generateContentStream',
    'generateContentStream',
    'generateContent',
    'generateContent',
    'generateContentStream',
  ]);
  const reached = run.events.filter((e) => e.type === 'cost_limit_reached');
  expect(reached).toEqual([expect.objectContaining({ request: 'compression', limitUsd: 1 })]);
  const warnings = run.events.filter((e) => e.type === 'warning').map((e) => (e as { message: string }).message);
  expect(warnings).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/usd.*more than 0/),
      expect.stringMatching(/topUpBudget ignored/),
      'spending limit raised to $2.00',
    ]),
  );
  await maybeRecordHistory(h, run.workflowId, 'spending-limit');
});

test('a stop at the spending limit ends the prompt as it stands, the request never sent', async () => {
  const script = [callWith(1000, 50_000, 'complete_task', {}), textResponse('never')];
  // $0.5001 spent by the first request; the next could cost $0.6555 more, past $1.
  const handle = await h.start([script[0], script[1]], { modelPrices, maxCostUsd: 1 });
  await waitForPause<Status>(handle);
  expect(h.fake.requests).toHaveLength(1);
  await handle.signal(topUpBudgetSignal, 'stop');
  const run = await h.finish(handle);
  expect(run.result?.terminateReason).toBe('stopped');
  expect(h.fake.requests).toHaveLength(1);
});

test('a sub-agent whose request could cross what its parent has left pauses; a top-up given to the parent resumes it', async () => {
  const script = [
    callWith(1000, 5, 'invoke_agent', { agent_name: 'helper', prompt: 'look around' }),
    // The child's first request ($0.6001) fits the $1.19985 its parent left it; its second could not.
    callWith(1000, 60_000, 'read_file', { file_path: 'x' }),
    callWith(1000, 5, 'complete_task', { result: 'found it' }),
    textResponse('the helper found it'),
  ];
  const handle = await h.start(script, {
    agents: [{ ...helper, tools: ['read_file'] }],
    modelPrices,
    maxCostUsd: 1.2,
  });
  // The parent shows its child's pause: the child's spend is counted with its own, the child still runs.
  const paused = await waitForPause<Status>(handle);
  expect(h.fake.requests).toHaveLength(2);
  expect(paused.costLimit?.limitUsd).toBe(1.2);
  expect(paused.costLimit?.spentUsd).toBeCloseTo(0.60025, 5);
  expect(paused.costLimit?.nextRequestUsd).toBeGreaterThan(0.6);
  const invoke = paused.toolCalls.find((c) => c.name === 'invoke_agent');
  const child = h.env.client.workflow.getHandle(`${handle.workflowId}--${invoke?.callId}`);
  expect((await child.describe()).status.name).toBe('RUNNING');
  // A malformed relay from a child is a warning, and changes nothing.
  await handle.signal(childCostPauseSignal, { childWorkflowId: 'x', paused: true, spentUsd: -1 });
  await topUpBudget(h.env.client, handle.workflowId, { usd: 1 });
  const run = await h.finish(handle);
  expect(run.result?.response).toBe('the helper found it');
  expect(run.result?.costLimitUsd).toBeCloseTo(2.2, 6);
  expect(h.fake.requests).toHaveLength(4);
  expect(run.events.filter((e) => e.type === 'cost_limit_reached')).toEqual([
    expect.objectContaining({ request: 'sub-agent turn', limitUsd: expect.closeTo(1.19985, 5) }),
  ]);
  const warnings = run.events.filter((e) => e.type === 'warning').map((e) => (e as { message: string }).message);
  expect(warnings).toEqual(
    expect.arrayContaining([expect.stringMatching(/^childCostPause ignored/), 'spending limit raised to $2.20']),
  );
});
