import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { ChildProcess } from 'node:child_process';
import type { WorkflowHandle } from '@temporalio/client';
import { FakeGeminiServer, functionCallResponse, textResponse } from '../../src/fake-gemini';
import { statusQuery, toolConfirmationSignal, type PromptInput, type PromptResult } from '../../src/workflows/api';
import { closeTestEnv, getTestEnv, type TestEnv } from '../helpers/temporal-env';
import { exited, spawnWorker, waitFor } from '../helpers/processes';

const run = promisify(execFile);
let fake: FakeGeminiServer | undefined;
const workers: ChildProcess[] = [];
afterAll(async () => {
  for (const w of workers) w.kill('SIGKILL');
  await Promise.all(workers.map(exited));
  await fake?.close();
  await closeTestEnv();
});

/**
 * A rolling deploy with Worker Deployment Versioning, as the README's "Deploys" runs it: build v1 is
 * current and starts a prompt that waits for an approval; build v2 starts and becomes current; the
 * approved command then runs on v1 (the prompt is pinned to it) and a new prompt runs on v2. Each
 * worker's shell commands see its own DURABLE_AGENT_BUILD_ID, which the commands write down.
 */
test('a versioned rolling deploy: the pinned prompt finishes on the old build, a new prompt runs on the new one', async () => {
  const env = await getTestEnv();
  const home = fs.mkdtempSync(path.join(env.tmpDir, 'deploy-home-'));
  const workspace = fs.realpathSync(fs.mkdtempSync(path.join(env.tmpDir, 'deploy-ws-')));
  fake = await FakeGeminiServer.start({
    script: [
      functionCallResponse({ name: 'run_shell_command', args: { command: 'echo $DURABLE_AGENT_BUILD_ID > a.txt' } }),
      functionCallResponse({ name: 'run_shell_command', args: { command: 'echo $DURABLE_AGENT_BUILD_ID > b.txt' } }),
      textResponse('B done.'),
      textResponse('A done.'),
    ],
  });
  const taskQueue = env.uniqueTaskQueue('deploy');
  const deployment = `deploy-${Date.now()}`;
  const base = {
    TEMPORAL_ADDRESS: env.address,
    DURABLE_AGENT_TASK_QUEUE: taskQueue,
    GOOGLE_GEMINI_BASE_URL: fake.url,
    DURABLE_AGENT_HOME: home,
    DURABLE_AGENT_DEPLOYMENT: deployment,
  };
  const v1 = spawnWorker({ ...base, DURABLE_AGENT_BUILD_ID: 'v1' });
  workers.push(v1);
  await setCurrent(env, deployment, 'v1', v1.output);
  const a = await startPrompt(env, taskQueue, 'a', workspace, 'default');
  await waitFor(async () => (await a.query(statusQuery)).pendingApprovals.length > 0, 30_000, v1.output);

  const v2 = spawnWorker({ ...base, DURABLE_AGENT_BUILD_ID: 'v2' });
  workers.push(v2);
  await setCurrent(env, deployment, 'v2', v2.output);
  const b = await startPrompt(env, taskQueue, 'b', workspace, 'yolo');
  expect(((await b.result()) as PromptResult).response).toBe('B done.');

  const [call] = (await a.query(statusQuery)).pendingApprovals;
  await a.signal(toolConfirmationSignal, { callId: call.callId, outcome: 'proceed_once' });
  expect(((await a.result()) as PromptResult).response).toBe('A done.');
  expect(fs.readFileSync(path.join(workspace, 'a.txt'), 'utf8').trim()).toBe('v1');
  expect(fs.readFileSync(path.join(workspace, 'b.txt'), 'utf8').trim()).toBe('v2');
  expect(await buildOf(a)).toBe('v1');
  expect(await buildOf(b)).toBe('v2');
}, 150_000);

test('a worker given a deployment without a build id is refused with a message that names both', async () => {
  const bad = spawnWorker({ TEMPORAL_ADDRESS: '127.0.0.1:1', DURABLE_AGENT_DEPLOYMENT: 'agents' });
  workers.push(bad);
  await exited(bad);
  expect(bad.exitCode).toBe(52);
  expect(bad.output()).toContain('--deployment and --build-id (or their variables) go together');
});

/** `temporal worker deployment set-current-version`, retried until the build's worker has polled. */
async function setCurrent(env: TestEnv, deployment: string, buildId: string, output: () => string): Promise<void> {
  const args = ['worker', 'deployment', 'set-current-version', '--address', env.address];
  const named = [...args, '--deployment-name', deployment, '--build-id', buildId, '--yes'];
  await waitFor(async () => (await run(env.cliPath, named), true), 30_000, output);
}

async function startPrompt(env: TestEnv, taskQueue: string, name: string, workspace: string, mode: string) {
  const input: PromptInput = {
    prompt: `prompt ${name}`,
    workspace,
    model: 'gemini-test',
    approvalMode: mode as PromptInput['approvalMode'],
    maxTurns: 10,
  };
  return env.client.workflow.start('agentPromptWorkflow', {
    taskQueue,
    workflowId: `deploy-${name}-${Date.now()}`,
    args: [input],
  });
}

/** The build the server says the workflow is pinned to. */
async function buildOf(handle: WorkflowHandle): Promise<string | undefined> {
  const info = (await handle.describe()).raw.workflowExecutionInfo?.versioningInfo;
  return info?.deploymentVersion?.buildId ?? undefined;
}
