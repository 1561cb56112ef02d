import { Worker } from '@temporalio/worker';
import { confirmToolCall, promptStatus } from '../../src/client';
import { createPrinter } from '../../src/cli/output';
import { textResponse } from '../../src/fake-gemini';
import { closeTestEnv, getTestEnv, type TestEnv } from '../helpers/temporal-env';
import { createHarness, type Harness } from '../helpers/agent-harness';

/** What `status`, `approve` and `run` say about a prompt that was terminated, or that is wedged. */
let env: TestEnv;
let h: Harness;
beforeAll(async () => {
  env = await getTestEnv();
  h = await createHarness('troubled-prompts');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

test('a wedged prompt: status and approve say which workflow task failure holds it, not "no worker"', async () => {
  const taskQueue = env.uniqueTaskQueue('wedged');
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowsPath: require.resolve('../fixtures/wedged-workflow'),
  });
  await worker.runUntil(async () => {
    const handle = await env.client.workflow.start('agentPromptWorkflow', {
      taskQueue,
      workflowId: `wedged-${Date.now()}`,
    });
    await handle.signal('wedge');
    while (((await handle.describe()).raw.pendingWorkflowTask?.attempt ?? 0) < 2)
      await new Promise((r) => setTimeout(r, 100));
    const report = await promptStatus(env.client, handle.workflowId);
    expect(report.error).toEqual({
      type: 'WorkflowTaskFailed',
      message: expect.stringMatching(/workflow task fails \(attempt \d+\): Cannot read properties of null/),
    });
    const approve = confirmToolCall(env.client, handle.workflowId, { callId: 'c1', outcome: 'proceed_once' });
    await expect(approve).rejects.toThrow(/call c1 was not decided: .*Cannot read properties of null/);
    await handle.terminate('test over');
  });
});

test('a terminated prompt: status says by whom and why, and run prints it', async () => {
  const handle = await h.start([textResponse('never sent')], { approvalMode: 'default' });
  await handle.terminate('GrpcMessageTooLarge');
  const report = await promptStatus(env.client, handle.workflowId);
  expect(report.status).toBe('terminated');
  expect(report.error?.message).toMatch(/^the prompt was terminated by \S+: GrpcMessageTooLarge$/);
  const written: string[] = [];
  const io = { stdout: { write: () => true }, stderr: { write: (s: string) => written.push(s) > 0 } };
  createPrinter('text', io as never, handle.workflowId).finish(report);
  expect(written.join('')).toBe(`Terminated: ${report.error?.message}\n`);
});
