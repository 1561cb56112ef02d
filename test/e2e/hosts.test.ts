import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { Pool } from 'pg';
import { FakeGeminiServer, functionCallResponse, textResponse } from '../../src/fake-gemini';
import { promptStatus } from '../../src/client/status';
import type { PromptInput, PromptResult } from '../../src/workflows/api';
import { closeTestEnv, getTestEnv, type TestEnv } from '../helpers/temporal-env';
import { BIN, exited, polled, spawnWorker, waitFor } from '../helpers/processes';
import { CLUSTER_TIMEOUT_MS, startPostgres, stopPostgres } from '../helpers/postgres';

/**
 * Issue 17's hosts: one Temporal server, workers of hosts alpha and beta as separate processes on
 * a shared PostgreSQL store. Each worker's commands see WHO=<its name>, so a file written by a
 * command says which worker ran it.
 */
const run = promisify(execFile);
let env: TestEnv;
let fake: FakeGeminiServer;
let pgDir: string;
let pool: Pool;
let taskQueue: string;
let workerEnv: Record<string, string>;
const workers: ReturnType<typeof spawnWorker>[] = [];

function startWorker(host: string, who: string, extra: string[] = []) {
  const child = spawnWorker({ ...workerEnv, WHO: who }, ['--host', host, ...extra]);
  workers.push(child);
  return child;
}

async function startOn(host: string, name: string, workspace: string) {
  const input: PromptInput = {
    prompt: `do the ${name} thing`,
    workspace,
    model: 'gemini-test',
    approvalMode: 'yolo',
    maxTurns: 10,
    toolHeartbeatTimeoutMs: 2000,
    modelRetryInitialMs: 100,
    host,
  };
  const workflowId = `hosts-${name}-${Date.now()}`;
  return env.client.workflow.start('agentPromptWorkflow', { taskQueue, workflowId, args: [input] });
}

function workspaceFor(name: string): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(env.tmpDir, `hosts-${name}-`)));
}

beforeAll(async () => {
  env = await getTestEnv();
  // Not under the run's private tmp dir: as root the cluster runs as the postgres user, who must reach it.
  pgDir = fs.mkdtempSync(path.join(os.tmpdir(), 'da-hosts-pg-'));
  const url = await startPostgres(pgDir);
  pool = new Pool({ connectionString: url });
  fake = await FakeGeminiServer.start({ script: [] });
  taskQueue = env.uniqueTaskQueue('hosts');
  workerEnv = {
    TEMPORAL_ADDRESS: env.address,
    DURABLE_AGENT_TASK_QUEUE: taskQueue,
    GOOGLE_GEMINI_BASE_URL: fake.url,
    DURABLE_AGENT_HOME: fs.mkdtempSync(path.join(env.tmpDir, 'hosts-home-')),
    DURABLE_AGENT_STORE: url,
  };
}, CLUSTER_TIMEOUT_MS);

afterAll(async () => {
  for (const w of workers) w.kill('SIGKILL');
  await Promise.all(workers.map(exited));
  await fake?.close();
  await pool?.end();
  await closeTestEnv();
  if (pgDir) await stopPostgres(pgDir);
}, 180_000);

test('a prompt for host beta runs its command on beta only and survives beta being SIGKILLed mid-command', async () => {
  const alpha = startWorker('alpha', 'alpha');
  let beta = startWorker('beta', 'beta');
  await polled(env.client, `${taskQueue}@alpha`, alpha.output);
  await polled(env.client, `${taskQueue}@beta`, beta.output);
  const workspace = workspaceFor('kill');
  const command = 'echo "start $WHO" >> ran.txt; sleep 3; echo "end $WHO" >> ran.txt';
  fake.load([functionCallResponse({ name: 'run_shell_command', args: { command } }), textResponse('Handled.')]);
  const handle = await startOn('beta', 'kill', workspace);
  await waitFor(async () => fs.existsSync(path.join(workspace, 'ran.txt')), 60_000, beta.output);
  beta.kill('SIGKILL');
  await exited(beta);
  beta = startWorker('beta', 'beta');
  const result = (await handle.result()) as PromptResult;
  expect(result.response).toBe('Handled.');
  // The command outlived beta's worker: the next beta worker (same home) waited for it and told the
  // model its real outcome; it was not run again, and never on alpha.
  expect(JSON.stringify(fake.requests[1].body)).not.toContain('Outcome unknown');
  const lines = fs.readFileSync(path.join(workspace, 'ran.txt'), 'utf8').trim().split('\n');
  expect(lines).toEqual(['start beta', 'end beta']);
  expect(lines.join('\n')).not.toContain('alpha');
  // The transcript, the journal and the live stream of the prompt are in PostgreSQL.
  const count = async (sql: string) => Number((await pool.query(sql, [handle.workflowId])).rows[0].n);
  expect(await count('SELECT count(*) AS n FROM transcript_messages WHERE transcript_id = $1')).toBeGreaterThan(1);
  expect(await count("SELECT count(*) AS n FROM tool_journal WHERE key LIKE $1 || '%'")).toBeGreaterThan(0);
  expect(await count('SELECT count(*) AS n FROM live_pieces WHERE workflow_id = $1')).toBeGreaterThan(0);
}, 180_000);

test("a sub-agent runs its commands on its parent prompt's host", async () => {
  const workspace = workspaceFor('child');
  fake.reset();
  fake.load([
    functionCallResponse({ name: 'invoke_agent', args: { agent_name: 'generalist', prompt: 'run it' } }),
    functionCallResponse({ name: 'run_shell_command', args: { command: 'echo "$WHO" >> ran.txt' } }),
    functionCallResponse({ name: 'complete_task', args: { result: 'ran' } }),
    textResponse('The sub-agent ran it.'),
  ]);
  const handle = await startOn('alpha', 'child', workspace);
  expect(((await handle.result()) as PromptResult).response).toBe('The sub-agent ran it.');
  expect(fs.readFileSync(path.join(workspace, 'ran.txt'), 'utf8')).toBe('alpha\n');
}, 120_000);

test('a prompt for a host with no worker waits, says so in status, and completes once one starts', async () => {
  const workspace = workspaceFor('wait');
  fake.reset();
  fake.load([
    functionCallResponse({ name: 'run_shell_command', args: { command: 'echo "$WHO" >> ran.txt' } }),
    textResponse('Done on gamma.'),
  ]);
  const handle = await startOn('gamma', 'wait', workspace);
  await waitFor(
    async () => (await promptStatus(env.client, handle.workflowId)).waitingForHost === 'gamma',
    60_000,
    () => fake.report(),
  );
  const cliEnv = { ...process.env, TEMPORAL_ADDRESS: env.address, DURABLE_AGENT_HOME: workerEnv.DURABLE_AGENT_HOME };
  const { stdout } = await run(process.execPath, [BIN, 'status', handle.workflowId], { env: cliEnv });
  expect(stdout).toContain('waiting for host gamma');
  const json = JSON.parse(
    (await run(process.execPath, [BIN, 'status', handle.workflowId, '--json'], { env: cliEnv })).stdout,
  );
  expect(json).toMatchObject({ host: 'gamma', waitingForHost: 'gamma', status: 'running' });
  startWorker('gamma', 'gamma');
  expect(((await handle.result()) as PromptResult).response).toBe('Done on gamma.');
  expect(fs.readFileSync(path.join(workspace, 'ran.txt'), 'utf8')).toBe('gamma\n');
}, 180_000);

test('SIGTERM lets the running command finish on its worker, which exits 0; the prompt ends on another', async () => {
  const workspace = workspaceFor('term');
  // Longer than the SDK's grace default we had before (5 s): only `--shutdown-grace` lets it finish.
  const command = 'echo "start $WHO" >> ran.txt; sleep 6; echo "end $WHO" >> ran.txt; echo "ran on $WHO"';
  fake.reset();
  fake.load([functionCallResponse({ name: 'run_shell_command', args: { command } }), textResponse('Finished.')]);
  const first = startWorker('delta', 'first', ['--shutdown-grace', '20s']);
  await polled(env.client, `${taskQueue}@delta`, first.output);
  const handle = await startOn('delta', 'term', workspace);
  await waitFor(async () => fs.existsSync(path.join(workspace, 'ran.txt')), 60_000, first.output);
  const second = startWorker('delta', 'second');
  first.kill('SIGTERM');
  await exited(first);
  expect(first.exitCode).toBe(0);
  const result = (await handle.result()) as PromptResult;
  expect(result.response).toBe('Finished.');
  expect(fs.readFileSync(path.join(workspace, 'ran.txt'), 'utf8')).toBe('start first\nend first\n');
  expect(JSON.stringify(fake.requests[1].body)).toContain('ran on first');
  expect(second.exitCode).toBeNull();
}, 180_000);

test('bad --host and --shutdown-grace values are usage errors that say what is expected', async () => {
  const fail = async (args: string[]) =>
    run(process.execPath, [BIN, ...args], { env: { ...process.env, ...workerEnv } }).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code: number; stderr: string }) => err,
    );
  const badHost = await fail(['worker', '--host', 'no spaces']);
  expect(badHost.code).toBe(42);
  expect(badHost.stderr).toContain('is not a host name');
  const badGrace = await fail(['worker', '--shutdown-grace', 'soon']);
  expect(badGrace.code).toBe(42);
  expect(badGrace.stderr).toContain('expected a duration such as 30s');
  const badRunHost = await fail(['run', '--host', '', 'hello']);
  expect(badRunHost.code).toBe(42);
  expect(badRunHost.stderr).toContain('an empty name is not a host name');
}, 60_000);

test('a worker with the file store says so when other hosts serve the same queue', async () => {
  const fileEnv = { ...workerEnv };
  delete fileEnv.DURABLE_AGENT_STORE;
  const lone = spawnWorker({ ...fileEnv, DURABLE_AGENT_HOME: fs.mkdtempSync(path.join(env.tmpDir, 'hosts-lone-')) }, [
    '--host',
    'epsilon',
  ]);
  workers.push(lone);
  await waitFor(async () => lone.output().includes('DURABLE_AGENT_STORE=postgres://'), 60_000, lone.output);
  expect(lone.output()).toMatch(/workers of alpha, beta, delta, gamma serve the same task queue/);
  lone.kill('SIGTERM');
  await exited(lone);
}, 90_000);
