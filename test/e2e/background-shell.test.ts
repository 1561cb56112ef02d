import type { WorkflowHandle } from '@temporalio/client';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { statusQuery, toolConfirmationSignal, type PromptResult } from '../../src/workflows/api';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, type Harness } from '../helpers/agent-harness';
import { eventually } from '../helpers/cli';
import { exited, spawnWorker } from '../helpers/processes';
import { startPromptOnWorkerProcess } from '../helpers/worker-prompt';
import { unfenced } from '../helpers/sent-parts';

/** Gemini CLI's background shell commands: `is_background`, and the tools that read them. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness('background-shell');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

type Sent = { contents: { parts: { functionResponse?: { name: string; response: Record<string, string> } }[] }[] };
const responses = () =>
  h.fake.requests.flatMap((r) =>
    (r.body as Sent).contents.flatMap((c) => c.parts.flatMap((p) => (p.functionResponse ? [p.functionResponse] : []))),
  );
const call = (name: string, args: Record<string, unknown>) => functionCallResponse({ name, args });
/** Turn 1: the background command, then a write that waits for approval (so the test can learn the PID first). */
const firstTurn = (command: string) =>
  functionCallResponse([
    { name: 'run_shell_command', args: { command, is_background: true } },
    { name: 'write_file', args: { file_path: 'gate.txt', content: 'g' } },
  ]);

/** Approves the background command, reads its PID from the events, and returns it with the write still waiting. */
async function startAndLearnPid(handle: WorkflowHandle, events: () => Promise<{ type: string }[]>): Promise<number> {
  const waiting = async (name: string) =>
    (await handle.query(statusQuery)).pendingApprovals.find((p) => p.name === name);
  const shell = await eventually(() => waiting('run_shell_command'), 60_000, 'the shell call');
  await handle.signal(toolConfirmationSignal, { callId: shell.callId, outcome: 'proceed_once' });
  await eventually(() => waiting('write_file'), 60_000, 'the write call');
  const done = (await events()).find((e) => e.type === 'tool_call_response') as unknown as { preview: string };
  return Number(/PID: (\d+)/.exec(done.preview)![1]);
}

async function approveWrite(handle: WorkflowHandle): Promise<void> {
  const write = (await handle.query(statusQuery)).pendingApprovals[0];
  await handle.signal(toolConfirmationSignal, { callId: write.callId, outcome: 'proceed_once' });
}

test('is_background returns at once with the PID; list and read report the process and its output', async () => {
  const ws = h.workspace();
  const handle = await h.start([firstTurn('echo hello-bg; sleep 1; echo bye-bg')], {
    workspace: ws,
    approvalMode: 'default',
  });
  const pid = await startAndLearnPid(handle, () => h.events(handle.workflowId));
  h.fake.load([
    call('read_background_output', { pid, delay_ms: 2000 }),
    call('list_background_processes', {}),
    call('read_background_output', { pid: 999_999_999 }),
    textResponse('seen'),
  ]);
  await approveWrite(handle);
  const run = await h.finish(handle);
  expect(run.result?.response).toBe('seen');
  const [started, , read, list, unknown] = responses().slice(-5);
  expect(unfenced(started.response.output, 'shell')).toMatch(
    /^Command is running in background\. PID: \d+\. Initial output: hello-bg/,
  );
  expect(unfenced(read.response.output, 'shell')).toBe(`PID ${pid}: exited with code 0\nOutput: hello-bg\nbye-bg`);
  expect(list.response.output).toBe(`PID ${pid}: exited with code 0 - echo hello-bg; sleep 1; echo bye-bg`);
  expect(unknown.response.error).toBe('No background process with PID 999999999.');
});

test('a background process whose worker was SIGKILLed is reported lost, not restarted', async () => {
  const ws = h.workspace();
  const home = fs.mkdtempSync(path.join(h.env.tmpDir, 'bg-home-'));
  h.fake.load([firstTurn('echo $$ > bg.pid; sleep 30')]);
  const { workerEnv, first, handle } = await startPromptOnWorkerProcess(h.env, {
    name: 'bg-kill',
    fakeUrl: h.fake.url,
    home,
    workspace: ws,
    prompt: 'start the server',
    input: { approvalMode: 'default' },
  });
  let second: ReturnType<typeof spawnWorker> | undefined;
  try {
    const pid = await startAndLearnPid(handle, () => h.events(handle.workflowId));
    first.kill('SIGKILL');
    await exited(first);
    second = spawnWorker(workerEnv);
    h.fake.load([
      call('read_background_output', { pid }),
      call('list_background_processes', {}),
      textResponse('it is gone'),
    ]);
    await approveWrite(handle);
    const result = (await handle.result()) as PromptResult;
    expect(result.response).toBe('it is gone');
    const [read, list] = responses().slice(-2);
    expect(read.response.error).toMatch(/^lost: the worker that ran it has stopped.*not restarted/);
    expect(list.response.output).toMatch(new RegExp(`^PID ${pid}: lost: .* - echo \\$\\$ > bg.pid; sleep 30$`));
    expect(fs.readFileSync(path.join(ws, 'bg.pid'), 'utf8').trim()).toBe(String(pid));
  } finally {
    for (const worker of [first, second]) {
      worker?.kill('SIGKILL');
      if (worker) await exited(worker);
    }
    try {
      process.kill(-Number(fs.readFileSync(path.join(ws, 'bg.pid'), 'utf8')), 'SIGKILL');
    } catch {
      // already gone
    }
  }
});
