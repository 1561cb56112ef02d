/**
 * Issue 14's prompt-loop items: a session-wide turn limit (Gemini CLI's maxSessionTurns) and AfterAgent fired however
 * a prompt ends.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { WorkflowFailedError, WorkflowHandle } from '@temporalio/client';
import { errorLine, functionCallResponse, streamLine, textResponse } from '../../src/fake-gemini';
import { agentSessionWorkflow } from '../../src/workflows/session-workflow';
import {
  closeSessionSignal,
  loopDecisionSignal,
  sendMessageUpdate,
  statusQuery,
  topUpBudgetSignal,
  type PromptInput,
  type SessionInput,
} from '../../src/workflows/api';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, maybeRecordHistory, type Harness, type PromptRun } from '../helpers/agent-harness';
import { answer, hooksOn } from '../helpers/hook-config';

let h: Harness;
beforeAll(async () => {
  h = await createHarness('unattended');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

const read = () => functionCallResponse({ name: 'read_file', args: { file_path: 'a.txt' } });
const failureOf = (err: unknown) =>
  (err as WorkflowFailedError).cause as Error & { type?: string; details?: { transcript?: unknown }[] };
/** Where a failed prompt left the conversation (its failure's details). */
const endOf = (err: unknown) => failureOf(err).details?.[0]?.transcript;

/** Waits for a started prompt (a session's child) to finish, whether it succeeds or fails. */
async function outcomeOf(promptId: string): Promise<PromptRun> {
  for (let i = 0; i < 400; i++) {
    const exists = await h.env.client.workflow
      .getHandle(promptId)
      .describe()
      .then(
        () => true,
        () => false,
      );
    if (exists) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return h.finish(h.env.client.workflow.getHandle(promptId));
}

describe('maxSessionTurns', () => {
  test('counts the requests of all the session’s prompts; the prompt that reaches it and every later one end', async () => {
    const workspace = h.workspace({ 'a.txt': 'A' });
    h.fake.load([read(), textResponse('first done'), read(), textResponse('never sent')]);
    const defaults: SessionInput['defaults'] = {
      workspace,
      model: 'gemini-test-model',
      approvalMode: 'yolo',
      maxTurns: 20,
      maxSessionTurns: 3,
      modelRetryInitialMs: 50,
    };
    const session = await h.env.client.workflow.start(agentSessionWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: `unattended-session-${Date.now()}`,
      args: [{ defaults }],
    });
    const send = (text: string) => session.executeUpdate(sendMessageUpdate, { args: [{ text }] });
    const first = await outcomeOf(await send('first'));
    expect(first.result).toMatchObject({ terminateReason: 'completed', response: 'first done', turns: 2 });

    // The second prompt makes the session's third request; its call runs, then the limit ends it.
    const second = await outcomeOf(await send('second'));
    expect(failureOf(second.error).type).toBe('SessionTurnLimit');
    expect(failureOf(second.error).message).toMatch(/session's limit of 3 model turns/);
    expect(second.events).toContainEqual(expect.objectContaining({ type: 'max_session_turns', maxSessionTurns: 3 }));
    expect(h.fake.requests).toHaveLength(3);

    // The third ends before any request, its message left out of the conversation.
    const third = await outcomeOf(await send('third'));
    expect(third.status).toMatchObject({ status: 'failed', error: { type: 'SessionTurnLimit' } });
    expect(h.fake.requests).toHaveLength(3);
    const id = `session/${session.workflowId}`;
    expect([second, third].map((run) => endOf(run.error))).toEqual([
      { id, length: 7 },
      { id, length: 7 },
    ]);
    const transcript = await h.store.readMessages(id, 7);
    expect(transcript[6].parts?.[0].functionResponse?.name).toBe('read_file');
    await expect(h.store.readMessages(id, 8)).rejects.toThrow();
    await session.signal(closeSessionSignal);
    await session.result();
  });

  test('a prompt run alone is its own session', async () => {
    const ws = h.workspace({ 'a.txt': 'A' });
    const run = await h.run([read(), textResponse('never sent')], { workspace: ws, maxSessionTurns: 1 });
    expect(run.status).toMatchObject({ status: 'failed', error: { type: 'SessionTurnLimit' } });
    expect(h.fake.requests).toHaveLength(1);
  });

  test('unset, there is no limit beyond the prompt’s own', async () => {
    const ws = h.workspace({ 'a.txt': 'A' });
    const run = await h.run([read(), read(), read(), textResponse('done')], { workspace: ws });
    expect(run.result?.response).toBe('done');
  });
});

describe('AfterAgent fires however the prompt ends', () => {
  /** An AfterAgent hook that appends its input to after.jsonl in the workspace, then prints `reply`. */
  const recording = (reply: unknown = {}) =>
    hooksOn('AfterAgent', [`(cat; echo) >> "$GEMINI_PROJECT_DIR/after.jsonl"; ${answer(reply)}`]);
  const afterInputs = (ws: string): Record<string, unknown>[] =>
    fs
      .readFileSync(path.join(ws, 'after.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
  const start = (script: Parameters<Harness['start']>[0], input: Partial<PromptInput> = {}) => {
    const ws = input.workspace ?? h.workspace({ 'a.txt': 'A', 'big.txt': `${'x'.repeat(99)}\n`.repeat(390) });
    return { ws, handle: h.start(script, { workspace: ws, hooks: recording(), ...input }) };
  };
  async function waitForPhase(handle: WorkflowHandle, phase: string): Promise<void> {
    for (let i = 0; i < 200; i++) {
      if ((await handle.query(statusQuery)).phase === phase) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`never reached ${phase}`);
  }
  const overflowing = streamLine([
    {
      candidates: [
        {
          content: { role: 'model', parts: [{ functionCall: { name: 'read_file', args: { file_path: 'big.txt' } } }] },
          finishReason: 'STOP',
        },
      ],
      usageMetadata: { promptTokenCount: 1_040_000, candidatesTokenCount: 5, totalTokenCount: 1_040_005 },
    },
  ]);

  test.each([
    ['the turn limit', [read(), textResponse('never')], { maxTurns: 1 }, 'TurnLimit'],
    ['a context overflow', [overflowing, textResponse('never')], {}, 'ContextWindowOverflow'],
    ['a model failure', [errorLine(400, 'INVALID_ARGUMENT', 'bad request')], {}, 'ModelCall.BadRequest'],
    ['the session limit', [read(), textResponse('never')], { maxSessionTurns: 1 }, 'SessionTurnLimit'],
  ] as const)('%s', async (_what, script, input, type) => {
    const { ws, handle } = start([...script], input);
    const run = await h.finish(await handle);
    expect(run.status.error?.type).toBe(type);
    expect(afterInputs(ws)).toEqual([
      expect.objectContaining({ hook_event_name: 'AfterAgent', prompt: 'do the task', stop_hook_active: false }),
    ]);
    const hooks = run.events.filter((e) => e.type === 'hook').map((e) => (e as { event: string }).event);
    expect(hooks).toEqual(['AfterAgent']);
  });

  test('a loop stop', async () => {
    const { ws, handle } = start(Array.from({ length: 6 }, read));
    const started = await handle;
    await waitForPhase(started, 'loop_detected');
    await started.signal(loopDecisionSignal, 'stop');
    const run = await h.finish(started);
    expect(run.status.error?.type).toBe('LoopDetected');
    expect(afterInputs(ws)).toHaveLength(1);
  });

  test('a budget stop', async () => {
    const { ws, handle } = start([read(), textResponse('never')], { maxTokens: 10 });
    const started = await handle;
    await waitForPhase(started, 'budget_exhausted');
    await started.signal(topUpBudgetSignal, 'stop');
    const run = await h.finish(started);
    expect(run.result?.terminateReason).toBe('stopped');
    expect(afterInputs(ws)).toHaveLength(1);
  });

  test('a hook asking to go on cannot lift a limit: the prompt ends and says so', async () => {
    const ws = h.workspace({ 'a.txt': 'A' });
    const hooks = recording({ decision: 'block', reason: 'keep going' });
    const run = await h.run([read(), textResponse('never')], { workspace: ws, hooks, maxTurns: 1 });
    await maybeRecordHistory(h, run.workflowId, 'after-agent-at-turn-limit');
    expect(run.status.error?.type).toBe('TurnLimit');
    expect(h.fake.requests).toHaveLength(1);
    expect(run.events).toContainEqual(
      expect.objectContaining({ type: 'warning', message: expect.stringMatching(/AfterAgent asked to go on/) }),
    );
  });

  test('a normal end still fires it once', async () => {
    const { ws, handle } = start([read(), textResponse('done')]);
    const run = await h.finish(await handle);
    expect(run.result?.response).toBe('done');
    expect(afterInputs(ws)).toEqual([expect.objectContaining({ prompt_response: 'done' })]);
  });
});
