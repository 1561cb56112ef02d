import * as fs from 'node:fs';
import * as path from 'node:path';
import type { WorkflowHandle, WorkflowUpdateFailedError } from '@temporalio/client';
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { confirmToolCallUpdate, statusQuery, toolConfirmationSignal, type PromptStatus } from '../../src/workflows/api';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, maybeRecordHistory, type Harness } from '../helpers/agent-harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness('approval');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

async function waitForPending(handle: WorkflowHandle, count = 1): Promise<PromptStatus> {
  for (let i = 0; i < 200; i++) {
    const status = await handle.query(statusQuery);
    if (status.pendingApprovals.length >= count) return status;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('no call became pending');
}

/** `durable-agent pending` and `temporal workflow list --query` rely on this search attribute. */
async function waitForVisibility(workflowId: string, awaiting: boolean): Promise<void> {
  const query = "DurableAgentStatus = 'awaiting_approval'";
  for (let i = 0; i < 100; i++) {
    const ids: string[] = [];
    for await (const wf of h.env.client.workflow.list({ query })) ids.push(wf.workflowId);
    if (ids.includes(workflowId) === awaiting) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`visibility never showed ${workflowId} awaiting=${awaiting}`);
}

const write = (file: string) => ({ name: 'write_file', args: { file_path: file, content: 'x' } });

test('default mode runs reads at once and holds a write until the toolConfirmation signal', async () => {
  const ws = h.workspace({ 'a.txt': 'A' });
  const handle = await h.start(
    [
      functionCallResponse([{ name: 'read_file', args: { file_path: 'a.txt' } }, write('b.txt')]),
      textResponse('written'),
    ],
    { workspace: ws, approvalMode: 'default' },
  );
  const status = await waitForPending(handle);
  expect(status.phase).toBe('awaiting_approval');
  expect(status.pendingApprovals[0]).toMatchObject({ name: 'write_file', args: { file_path: 'b.txt' } });
  expect(status.toolCalls.find((c) => c.name === 'read_file')?.status).toBe('success');
  expect(fs.existsSync(path.join(ws, 'b.txt'))).toBe(false);
  await waitForVisibility(handle.workflowId, true);
  await handle.signal(toolConfirmationSignal, { callId: status.pendingApprovals[0].callId, outcome: 'proceed_once' });
  const run = await h.finish(handle);
  await waitForVisibility(handle.workflowId, false);
  expect(run.result?.response).toBe('written');
  expect(fs.readFileSync(path.join(ws, 'b.txt'), 'utf8')).toBe('x');
  await maybeRecordHistory(h, run.workflowId, 'approval-signal');
});

test('bad confirmations never wedge the prompt: each becomes a warning event, the update rejects them', async () => {
  const ws = h.workspace();
  const handle = await h.start([functionCallResponse(write('c.txt')), textResponse('done')], {
    workspace: ws,
    approvalMode: 'default',
  });
  const status = await waitForPending(handle);
  const callId = status.pendingApprovals[0].callId;
  await handle.signal(toolConfirmationSignal, 'not an object');
  await handle.signal(toolConfirmationSignal, { callId, outcome: 'maybe' });
  await handle.signal(toolConfirmationSignal, { callId: 'nope', outcome: 'proceed_once' });
  await handle.signal(toolConfirmationSignal, { callId, outcome: 'modify', args: { file_path: 42 } });
  const rejection = await handle
    .executeUpdate(confirmToolCallUpdate, { args: [{ callId: 'nope', outcome: 'proceed_once' }] })
    .catch((err: WorkflowUpdateFailedError) => err);
  expect((rejection as WorkflowUpdateFailedError).cause?.message).toMatch(/unknown callId nope/);
  expect((await handle.query(statusQuery)).pendingApprovals).toHaveLength(1);
  await expect(
    handle.executeUpdate(confirmToolCallUpdate, {
      args: [{ callId, outcome: 'modify', args: { file_path: 'd.txt', content: 'changed' } }],
    }),
  ).resolves.toContain('modified');
  const run = await h.finish(handle);
  const warnings = run.events.filter((e) => e.type === 'warning').map((e) => (e as { message: string }).message);
  expect(warnings).toHaveLength(4);
  expect(warnings[0]).toMatch(/malformed/);
  expect(warnings[1]).toMatch(/outcome/);
  expect(warnings[2]).toMatch(/unknown callId nope/);
  expect(warnings[3]).toMatch(/invalid/);
  expect(fs.readFileSync(path.join(ws, 'd.txt'), 'utf8')).toBe('changed');
  expect(fs.existsSync(path.join(ws, 'c.txt'))).toBe(false);
  await expect(
    handle.executeUpdate(confirmToolCallUpdate, { args: [{ callId, outcome: 'proceed_once' }] }),
  ).rejects.toThrow();
});

test('cancel denies the call and every call queued after it, and the model is told', async () => {
  const ws = h.workspace();
  const handle = await h.start(
    [functionCallResponse([write('1.txt'), write('2.txt'), write('3.txt')]), textResponse('understood')],
    { workspace: ws, approvalMode: 'default' },
  );
  const status = await waitForPending(handle);
  await handle.signal(toolConfirmationSignal, {
    callId: status.pendingApprovals[0].callId,
    outcome: 'cancel',
    reason: 'not now',
  });
  const run = await h.finish(handle);
  const responses = (
    h.fake.requests[1].body as { contents: { parts: { functionResponse: { response: { error?: string } } }[] }[] }
  ).contents[2].parts;
  expect(responses).toHaveLength(3);
  expect(responses[0].functionResponse.response.error).toMatch(/denied.*not now/);
  expect(responses[1].functionResponse.response.error).toMatch(/Cancelled/);
  expect(responses[2].functionResponse.response.error).toMatch(/Cancelled/);
  expect(fs.readdirSync(ws)).toEqual([]);
  expect(run.result?.response).toBe('understood');
});

test('an approval timeout denies the call with a message to the model', async () => {
  const ws = h.workspace();
  const run = await h.run([functionCallResponse(write('late.txt')), textResponse('ok, skipped')], {
    workspace: ws,
    approvalMode: 'default',
    approvalTimeoutMs: 1000,
  });
  const response = (
    h.fake.requests[1].body as { contents: { parts: { functionResponse: { response: { error?: string } } }[] }[] }
  ).contents[2].parts[0];
  expect(response.functionResponse.response.error).toMatch(/No approval arrived/);
  expect(fs.existsSync(path.join(ws, 'late.txt'))).toBe(false);
  expect(run.result?.response).toBe('ok, skipped');
});

test('with an approval timeout, an approval that arrives in time still runs the call', async () => {
  const ws = h.workspace();
  const handle = await h.start([functionCallResponse(write('in-time.txt')), textResponse('written in time')], {
    workspace: ws,
    approvalMode: 'default',
    approvalTimeoutMs: 60_000,
  });
  const status = await waitForPending(handle);
  await handle.signal(toolConfirmationSignal, { callId: status.pendingApprovals[0].callId, outcome: 'proceed_once' });
  const run = await h.finish(handle);
  expect(run.result?.response).toBe('written in time');
  expect(fs.readFileSync(path.join(ws, 'in-time.txt'), 'utf8')).toBe('x');
});

test('plan mode refuses mutating tools without asking', async () => {
  const ws = h.workspace();
  const run = await h.run([functionCallResponse(write('p.txt')), textResponse('planned')], {
    workspace: ws,
    approvalMode: 'plan',
  });
  expect(run.result?.response).toBe('planned');
  expect(fs.existsSync(path.join(ws, 'p.txt'))).toBe(false);
});

test('cancelling a prompt that awaits approval records a response for the call and ends as cancelled', async () => {
  const ws = h.workspace();
  const handle = await h.start([functionCallResponse(write('never.txt'))], { workspace: ws, approvalMode: 'default' });
  await waitForPending(handle);
  await handle.cancel();
  const run = await h.finish(handle);
  expect(run.status.status).toBe('cancelled');
  const transcript = await h.store.readMessages(run.workflowId, 3);
  expect(transcript[2].parts?.[0].functionResponse?.response).toMatchObject({
    error: expect.stringMatching(/cancelled/i),
  });
  expect(fs.existsSync(path.join(ws, 'never.txt'))).toBe(false);
});
