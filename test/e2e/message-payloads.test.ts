import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { WorkflowHandle } from '@temporalio/client';
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import * as api from '../../src/workflows/api';
import { agentSessionWorkflow } from '../../src/workflows/session-workflow';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, type Harness } from '../helpers/agent-harness';

/**
 * Anyone who reaches the server can send any payload to any handler. Every signal, update and query of
 * api.ts gets null, a number, a string and an object over the size limit; four ~1.5 MB signals and one
 * that cannot be decoded go through the stock `temporal` CLI. The prompt must stay healthy (no failed
 * workflow task), say what it ignored in short warnings, and finish normally once approved.
 */
const PROMPT_HANDLERS = [
  'toolConfirmation',
  'setApprovalMode',
  'confirmToolCall',
  'answerQuestion',
  'submitAnswer',
  'childApproval',
  'status',
  'events',
  'steer',
  'compress',
  'topUpBudget',
  'loopDecision',
];
const SESSION_HANDLERS = ['sendMessage', 'sessionStatus', 'clearSession', 'compressSession', 'closeSession'];
/** Handlers that take no payload: they ignore whatever is sent along. */
const NO_PAYLOAD = ['compress', 'closeSession', 'clearSession', 'compressSession', 'status', 'sessionStatus'];
const HUGE = { text: 'x'.repeat(300_000), callId: 'y'.repeat(300_000) };
const BAD_PAYLOADS: unknown[] = [null, 42, 'a string', HUGE];

type Handler = { type: 'signal' | 'update' | 'query'; name: string };
const handlers = Object.values(api as Record<string, unknown>).filter(
  (d): d is Handler => typeof d === 'object' && d !== null && 'name' in d && 'type' in d,
);

let h: Harness;
beforeAll(async () => {
  h = await createHarness('message-payloads');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

async function sendBad(handle: WorkflowHandle, handler: Handler, payload: unknown): Promise<void> {
  if (handler.type === 'signal') return handle.signal(handler.name, payload);
  // An update that takes a payload must reject a bad one; one that takes none ignores it.
  if (handler.type === 'update') {
    const outcome = await handle.executeUpdate(handler.name, { args: [payload] }).then(
      () => 'accepted',
      (err: Error) => err.message,
    );
    if (!NO_PAYLOAD.includes(handler.name)) expect([handler.name, outcome]).not.toEqual([handler.name, 'accepted']);
    return;
  }
  await handle.query(handler.name, payload).catch(() => undefined);
}

async function temporalCli(args: string[]): Promise<void> {
  const env = h.env;
  await promisify(execFile)(env.cliPath, ['--address', env.address, ...args], { timeout: 60_000 });
}

async function taskFailures(handle: WorkflowHandle): Promise<string[]> {
  const history = await handle.fetchHistory();
  return (history.events ?? [])
    .filter((e) => e.workflowTaskFailedEventAttributes)
    .map((e) => e.workflowTaskFailedEventAttributes!.failure?.message ?? '');
}

async function waitForApproval(handle: WorkflowHandle): Promise<string> {
  for (;;) {
    const status = await handle.query(api.statusQuery);
    if (status.pendingApprovals.length > 0) return status.pendingApprovals[0].callId;
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('every message handler of api.ts is covered below (a new handler needs its bad-payload case)', () => {
  expect(handlers.map((d) => d.name).sort()).toEqual([...PROMPT_HANDLERS, ...SESSION_HANDLERS].sort());
});

test('null, a number, a string, a huge object, four 1.5 MB signals and an undecodable one: the prompt goes on', async () => {
  const workspace = h.workspace();
  const handle = await h.start(
    [functionCallResponse({ name: 'write_file', args: { file_path: 'a.txt', content: 'A' } }), textResponse('done')],
    { approvalMode: 'default', workspace },
  );
  const callId = await waitForApproval(handle);
  for (const handler of handlers.filter((d) => PROMPT_HANDLERS.includes(d.name)))
    for (const payload of BAD_PAYLOADS) await sendBad(handle, handler, payload);
  await handle.signal(api.toolConfirmationSignal, { callId: 'q'.repeat(100_000), outcome: 'proceed_once' });
  const big = path.join(h.env.tmpDir, `big-signal-${Date.now()}.json`);
  fs.writeFileSync(big, JSON.stringify({ callId: 'z'.repeat(1_500_000), outcome: 'proceed_once' }));
  for (let i = 0; i < 4; i++)
    await temporalCli([
      'workflow',
      'signal',
      '-w',
      handle.workflowId,
      '--name',
      'toolConfirmation',
      '--input-file',
      big,
    ]);
  await temporalCli([
    ...['workflow', 'signal', '-w', handle.workflowId, '--name', 'childApproval'],
    ...['--input', '"x"', '--input-meta', 'encoding=binary/unknown'],
  ]);
  expect((await handle.query(api.statusQuery)).pendingApprovals.map((c) => c.callId)).toEqual([callId]);
  await handle.signal(api.toolConfirmationSignal, { callId, outcome: 'proceed_once' });
  const run = await h.finish(handle);
  expect(run.result?.response).toBe('done');
  expect(fs.readFileSync(path.join(workspace, 'a.txt'), 'utf8')).toBe('A');
  expect(await taskFailures(handle)).toEqual([]);
  const warnings = run.events.flatMap((e) => (e.type === 'warning' ? [e.message] : []));
  // Seven signals take a payload, each sent one huge one; and the four through the CLI.
  expect(warnings.filter((w) => w.includes('over the limit'))).toHaveLength(11);
  expect(warnings).toContainEqual(expect.stringMatching(/^childApproval ignored: the payload could not be decoded/));
  expect(Math.max(...warnings.map((w) => w.length))).toBeLessThan(600);
  expect(warnings).toContain(
    `toolConfirmation ignored: unknown callId ${'q'.repeat(120)}… (100000 characters); awaiting approval: ${callId}`,
  );
});

test('the session handlers refuse the same payloads and the session stays usable', async () => {
  h.fake.load([textResponse('Answer.')]);
  const session = await h.env.client.workflow.start(agentSessionWorkflow, {
    taskQueue: h.taskQueue,
    workflowId: `payloads-session-${Date.now()}`,
    args: [{ defaults: { workspace: h.workspace(), model: 'gemini-test-model', approvalMode: 'yolo', maxTurns: 5 } }],
  });
  for (const handler of handlers.filter((d) => SESSION_HANDLERS.includes(d.name) && d.name !== 'closeSession'))
    for (const payload of BAD_PAYLOADS) await sendBad(session, handler, payload);
  const promptId = await session.executeUpdate(api.sendMessageUpdate, { args: [{ text: 'a question' }] });
  expect(promptId).toBe(`${session.workflowId}-p1`);
  await session.signal('closeSession', null);
  await session.result();
  expect(await taskFailures(session)).toEqual([]);
});
