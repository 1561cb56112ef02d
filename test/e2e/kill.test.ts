import * as fs from 'node:fs';
import * as path from 'node:path';
import { FakeGeminiServer, functionCallResponse, textResponse } from '../../src/fake-gemini';
import { statusQuery, type PromptResult } from '../../src/workflows/api';
import { closeTestEnv, getTestEnv } from '../helpers/temporal-env';
import { exited, spawnWorker, waitFor } from '../helpers/processes';
import { startPromptOnWorkerProcess } from '../helpers/worker-prompt';
import { maybeRecordHistory } from '../helpers/agent-harness';

let fake: FakeGeminiServer;
afterAll(async () => {
  await fake?.close();
  await closeTestEnv();
});

/**
 * The worker process is SIGKILLed while a slow shell command runs. A new worker takes the prompt
 * over, and the prompt completes. The command is not run a second time (a side effect is never silently
 * repeated): it ran on in the spawner, and the new worker waits for it and gives the model its real output
 * and exit code.
 */
test('a prompt survives its worker being SIGKILLed mid-tool; the new worker reports the command’s real outcome', async () => {
  const env = await getTestEnv();
  const home = fs.mkdtempSync(path.join(env.tmpDir, 'kill-home-'));
  const workspace = fs.realpathSync(fs.mkdtempSync(path.join(env.tmpDir, 'kill-ws-')));
  const command = 'echo started >> marker.txt; sleep 3; echo finished >> marker.txt; echo real-output; exit 3';
  fake = await FakeGeminiServer.start({
    script: [
      functionCallResponse({ name: 'run_shell_command', args: { command } }),
      textResponse('The slow command was handled.'),
    ],
  });
  const { workerEnv, first, handle } = await startPromptOnWorkerProcess(env, {
    name: 'kill',
    fakeUrl: fake.url,
    home,
    workspace,
    prompt: 'run the slow thing',
  });
  await waitFor(
    async () => (await handle.query(statusQuery)).toolCalls.some((c) => c.status === 'executing'),
    30_000,
    first.output,
  );
  await waitFor(async () => fs.existsSync(path.join(workspace, 'marker.txt')), 10_000, first.output);
  first.kill('SIGKILL');
  await exited(first);
  const second = spawnWorker(workerEnv);
  try {
    const result = (await handle.result()) as PromptResult;
    expect(result.response).toBe('The slow command was handled.');
    // The command ran on after its worker died; the new worker waited for it and reports what it really did.
    const sent = JSON.stringify(fake.requests[1].body);
    expect(sent).not.toContain('Outcome unknown');
    expect(sent).toContain('real-output');
    expect(sent).toMatch(/Exit Code: 3/i);
    expect(fs.readFileSync(path.join(workspace, 'marker.txt'), 'utf8')).toBe('started\nfinished\n');
    expect(fake.requests).toHaveLength(2);
    await maybeRecordHistory({ env }, handle.workflowId, 'worker-killed-mid-tool');
  } finally {
    second.kill('SIGTERM');
    await exited(second);
  }
}, 90_000);

test('a sub-agent survives its worker being SIGKILLed mid-run and finishes on a new worker', async () => {
  const env = await getTestEnv();
  const home = fs.mkdtempSync(path.join(env.tmpDir, 'kill-child-home-'));
  const workspace = fs.realpathSync(fs.mkdtempSync(path.join(env.tmpDir, 'kill-child-ws-')));
  const command = 'echo started >> marker.txt; sleep 3; echo finished >> marker.txt';
  await fake.close();
  fake = await FakeGeminiServer.start({
    script: [
      functionCallResponse({ name: 'invoke_agent', args: { agent_name: 'generalist', prompt: 'run the slow thing' } }),
      functionCallResponse({ name: 'run_shell_command', args: { command } }),
      functionCallResponse({ name: 'complete_task', args: { result: 'handled' } }),
      textResponse('The sub-agent handled it.'),
    ],
  });
  const { workerEnv, first, handle } = await startPromptOnWorkerProcess(env, {
    name: 'kill-child',
    fakeUrl: fake.url,
    home,
    workspace,
    prompt: 'delegate',
  });
  await waitFor(async () => fs.existsSync(path.join(workspace, 'marker.txt')), 30_000, first.output);
  first.kill('SIGKILL');
  await exited(first);
  const second = spawnWorker(workerEnv);
  try {
    const result = (await handle.result()) as PromptResult;
    expect(result.response).toBe('The sub-agent handled it.');
    // The command outlived the worker: the new worker (same home) waited for it and reported its real
    // outcome instead of "outcome unknown", and it ran once.
    expect(JSON.stringify(fake.requests[2].body)).not.toContain('Outcome unknown');
    expect(fs.readFileSync(path.join(workspace, 'marker.txt'), 'utf8')).toBe('started\nfinished\n');
    expect(fake.requests).toHaveLength(4);
  } finally {
    second.kill('SIGTERM');
    await exited(second);
  }
}, 90_000);
