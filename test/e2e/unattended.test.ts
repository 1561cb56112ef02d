/**
 * Issue 14's prompt-loop items: a session-wide turn limit (Gemini CLI's maxSessionTurns) and AfterAgent fired however
 * a prompt ends.
 */
import type { WorkflowFailedError } from '@temporalio/client';
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { agentSessionWorkflow } from '../../src/workflows/session-workflow';
import { closeSessionSignal, sendMessageUpdate, type SessionInput } from '../../src/workflows/api';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, type Harness, type PromptRun } from '../helpers/agent-harness';

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
