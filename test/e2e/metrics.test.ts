import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { FakeGeminiServer, functionCallResponse, textResponse } from '../../src/fake-gemini';
import type { PromptResult } from '../../src/workflows/api';
import { closeTestEnv, getTestEnv } from '../helpers/temporal-env';
import { scrape, sum } from '../helpers/metrics';
import { BIN, exited, spawnWorker, waitFor } from '../helpers/processes';

let fake: FakeGeminiServer | undefined;
const workers: ChildProcess[] = [];
afterAll(async () => {
  // A worker left by a failed test holds connections open to the fake model server, whose close waits for them.
  for (const w of workers) w.kill('SIGKILL');
  await Promise.all(workers.map(exited));
  await fake?.close();
  await closeTestEnv();
});

/**
 * Two worker processes serve one prompt: the first (`--metrics`) is SIGKILLed while the prompt's tool
 * runs, the second (`DURABLE_AGENT_METRICS`) replays what the first did and finishes it. Each scrape shows
 * the SDK's `temporal_` metrics and our `durable_agent_` ones; together they count the prompt once and
 * each of its model turns once, because the workflow meter is silent while a workflow replays.
 */
test('worker --metrics serves temporal_ and durable_agent_ metrics, counted once across a worker restart', async () => {
  const env = await getTestEnv();
  const home = fs.mkdtempSync(path.join(env.tmpDir, 'metrics-home-'));
  const workspace = fs.realpathSync(fs.mkdtempSync(path.join(env.tmpDir, 'metrics-ws-')));
  const command = 'echo started >> marker.txt; sleep 3; echo finished >> marker.txt';
  fake = await FakeGeminiServer.start({
    script: [functionCallResponse({ name: 'run_shell_command', args: { command } }), textResponse('Done.')],
  });
  const taskQueue = env.uniqueTaskQueue('metrics');
  const workerEnv = {
    TEMPORAL_ADDRESS: env.address,
    DURABLE_AGENT_TASK_QUEUE: taskQueue,
    GOOGLE_GEMINI_BASE_URL: fake.url,
    DURABLE_AGENT_HOME: home,
  };
  const [portA, portB] = [await freePort(), await freePort()];
  const first = spawnWithArgs(workerEnv, ['--metrics', `127.0.0.1:${portA}`]);
  const input = { prompt: 'run it', workspace, model: 'gemini-test', approvalMode: 'yolo', maxTurns: 10 };
  const handle = await env.client.workflow.start('agentPromptWorkflow', {
    taskQueue,
    workflowId: `metrics-${Date.now()}`,
    args: [{ ...input, toolHeartbeatTimeoutMs: 2000, modelRetryInitialMs: 100 }],
  });
  await waitFor(async () => fs.existsSync(path.join(workspace, 'marker.txt')), 30_000, first.output);
  let before = '';
  await waitFor(
    async () => (before = await scrape(portA)).includes('durable_agent_model_turns'),
    10_000,
    () => before,
  );
  expect(before).toMatch(/^temporal_\w+/m);
  first.kill('SIGKILL');
  await exited(first);
  const second = spawnWorker({ ...workerEnv, DURABLE_AGENT_METRICS: `127.0.0.1:${portB}` });
  workers.push(second);
  try {
    expect(((await handle.result()) as PromptResult).response).toBe('Done.');
    let after = '';
    await waitFor(
      async () => /durable_agent_prompts_ended\{/.test((after = await scrape(portB))),
      10_000,
      () => after,
    );
    expect(after).toMatch(/^temporal_\w+/m);
    const both = [before, after];
    expect(sum(both, 'durable_agent_prompts_started')).toBe(1);
    expect(sum(both, 'durable_agent_model_turns')).toBe(2);
    expect(sum(both, 'durable_agent_prompts_ended', /outcome="completed"/)).toBe(1);
    expect(sum(both, 'durable_agent_tool_calls', /tool="run_shell_command"/)).toBe(1);
    expect(sum([after], 'durable_agent_tool_call_duration_ms_count')).toBe(1);
    expect(sum(both, 'durable_agent_tokens', /kind="input"/)).toBeGreaterThan(0);
  } finally {
    second.kill('SIGTERM');
    await exited(second);
  }
}, 90_000);

test('a bad --metrics address is refused with a message that names it', async () => {
  const bad = spawnWithArgs({ TEMPORAL_ADDRESS: '127.0.0.1:1' }, ['--metrics', 'nowhere']);
  await exited(bad);
  expect(bad.exitCode).toBe(52);
  expect(bad.output()).toContain('--metrics must be HOST:PORT');
});

function spawnWithArgs(env: Record<string, string>, args: string[]) {
  const child = spawn(process.execPath, [BIN, 'worker', ...args], {
    env: { ...process.env, GEMINI_API_KEY: '', DURABLE_AGENT_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  workers.push(child);
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  return Object.assign(child, { output: () => output });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}
