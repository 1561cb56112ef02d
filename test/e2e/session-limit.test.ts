import type { WorkflowHandle } from '@temporalio/client';
import { topUpBudget } from '../../src/client';
import { streamLine, textResponse } from '../../src/fake-gemini';
import { agentSessionWorkflow } from '../../src/workflows/session-workflow';
import {
  closeSessionSignal,
  sendMessageUpdate,
  sessionStatusQuery,
  statusQuery,
  type SessionInput,
} from '../../src/workflows/api';
import { promptSpentSignal } from '../../src/workflows/spend-signals';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, type Harness } from '../helpers/agent-harness';
import { promptResultOnceStarted, untilSessionIdle } from '../helpers/session-prompts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness('session-limit');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

/** USD per million tokens: a whole answer (65,536 tokens) could cost $0.65536. */
const modelPrices = { 'gemini-test-model': { input: 0.1, cachedInput: 0.01, output: 10, thinking: 10 } };

/** A `read_file` call whose usage report says 1,000 tokens in and `out` tokens out: $0.0001 + out × $0.00001. */
const readWith = (out: number) =>
  streamLine([
    {
      candidates: [
        {
          content: { role: 'model', parts: [{ functionCall: { name: 'read_file', args: { file_path: 'a.txt' } } }] },
          finishReason: 'STOP',
        },
      ],
      usageMetadata: { promptTokenCount: 1000, candidatesTokenCount: out, totalTokenCount: 1000 + out },
    },
  ]);

type Status = { phase: string; costLimit?: { limitUsd: number; spentUsd: number; nextRequestUsd?: number } };

async function startSession(): Promise<WorkflowHandle> {
  const defaults: SessionInput['defaults'] = {
    workspace: h.workspace({ 'a.txt': 'A' }),
    model: 'gemini-test-model',
    approvalMode: 'yolo',
    maxTurns: 20,
    modelRetryInitialMs: 50,
    modelPrices,
  };
  const id = `session-limit-${Date.now()}-${Math.random().toString(16).slice(2, 6)}`;
  return h.env.client.workflow.start(agentSessionWorkflow, {
    taskQueue: h.taskQueue,
    workflowId: id,
    args: [{ defaults }],
  });
}

const send = (session: WorkflowHandle, text: string, maxCostUsd?: number) =>
  session.executeUpdate(sendMessageUpdate, { args: [{ text, ...(maxCostUsd ? { maxCostUsd } : {}) }] });

/** Waits for a session's prompt (which may not have started yet) to pause on its spending limit. */
async function pausedOnLimit(promptId: string): Promise<Status> {
  const handle = h.env.client.workflow.getHandle(promptId);
  for (let i = 0; i < 400; i++) {
    const status = (await handle.query(statusQuery).catch(() => undefined)) as Status | undefined;
    if (status?.phase === 'budget_exhausted') return status;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${promptId} never paused`);
}

test('two prompts share the session’s limit: the second pauses before the request that would cross what is left', async () => {
  h.fake.load([
    // The first prompt spends $0.5001 of the session's $1.50.
    readWith(50_000),
    textResponse('first done'),
    // The second may spend the $0.9999 left; after $0.4001 its next request (up to $0.6555) could cross it.
    readWith(40_000),
    textResponse('second done'),
  ]);
  const session = await startSession();
  const first = await send(session, 'first', 1.5);
  expect((await promptResultOnceStarted(h.env.client, first)).response).toBe('first done');
  const second = await send(session, 'second');
  const paused = await pausedOnLimit(second);
  expect(h.fake.requests).toHaveLength(3);
  expect(paused.costLimit?.limitUsd).toBeCloseTo(0.9999, 4);
  expect(paused.costLimit?.spentUsd).toBeCloseTo(0.4001, 4);
  await topUpBudget(h.env.client, second, { usd: 1 });
  expect((await promptResultOnceStarted(h.env.client, second)).response).toBe('second done');
  await untilSessionIdle(h.env.client, session.workflowId);
  const cost = (await session.query(sessionStatusQuery)).cost;
  // The top-up raised the session's limit as well: $1.50 + $1.
  expect(cost?.limitUsd).toBeCloseTo(2.5, 4);
  expect(cost?.spentUsd).toBeCloseTo(0.9002, 3);
  await session.signal(closeSessionSignal);
  await session.result();
});

test('a prompt cancelled on its own is charged to its session, and the next prompt is given only what is left', async () => {
  h.fake.load([readWith(50_000), textResponse('never')]);
  const session = await startSession();
  const first = await send(session, 'first', 1);
  // $0.5001 spent; the next request could cost $0.6555 more, past $1: paused, then cancelled (Ctrl-C in chat).
  await pausedOnLimit(first);
  await h.env.client.workflow.getHandle(first).cancel();
  await untilSessionIdle(h.env.client, session.workflowId);
  expect((await session.query(sessionStatusQuery)).cost?.spentUsd).toBeCloseTo(0.5001, 6);
  // A report that is not one, or names another prompt, changes nothing.
  await session.signal(promptSpentSignal, { promptId: first, spentUsd: -3 });
  await session.signal(promptSpentSignal, { promptId: 'someone-else', spentUsd: 3 });
  const second = await send(session, 'second');
  // $0.4999 left: the second prompt's first request (up to $0.6555) is not sent.
  const paused = await pausedOnLimit(second);
  expect(paused.costLimit?.limitUsd).toBeCloseTo(0.4999, 6);
  expect(h.fake.requests).toHaveLength(1);
  await h.env.client.workflow.getHandle(second).cancel();
  await untilSessionIdle(h.env.client, session.workflowId);
  expect((await session.query(sessionStatusQuery)).cost?.spentUsd).toBeCloseTo(0.5001, 6);
  await session.signal(closeSessionSignal);
  await session.result();
});
