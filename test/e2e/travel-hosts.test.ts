/**
 * Going back to a turn from another host: workers of hosts alpha and beta, each with a home of its own, on one
 * Temporal server and a shared PostgreSQL store. A fork on beta writes a workspace beta never saw; a rewind run as
 * beta puts alpha's workspace back through alpha's worker. Each worker's commands see WHO=<its name>, so a file a
 * command writes says which host ran it. Run `npm run build` first: the commands run the binary (`dist/`).
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { FakeGeminiServer, functionCallResponse, textResponse } from '../../src/fake-gemini';
import type { PromptInput, PromptResult } from '../../src/workflows/api';
import { closeTestEnv, getTestEnv, type TestEnv } from '../helpers/temporal-env';
import { BIN, exited, polled, spawnWorker } from '../helpers/processes';
import { CLUSTER_TIMEOUT_MS, startPostgres, stopPostgres } from '../helpers/postgres';
import { askSession } from '../helpers/session-prompts';
import { lastRewindQuery } from '../../src/workflows/rewind-api';

type Sent = { contents: { role: string; parts: { text?: string; functionCall?: { name: string } }[] }[] };

const execute = promisify(execFile);
let env: TestEnv;
let fake: FakeGeminiServer;
let pgDir: string;
let taskQueue: string;
let shared: Record<string, string>;
const homes: Record<string, string> = {};
const workers: ReturnType<typeof spawnWorker>[] = [];

beforeAll(async () => {
  env = await getTestEnv();
  // Not under the run's private tmp dir: as root the cluster runs as the postgres user, who must reach it.
  pgDir = fs.mkdtempSync(path.join(os.tmpdir(), 'da-travel-pg-'));
  const url = await startPostgres(pgDir);
  fake = await FakeGeminiServer.start({ script: [] });
  taskQueue = env.uniqueTaskQueue('travel-hosts');
  shared = {
    TEMPORAL_ADDRESS: env.address,
    DURABLE_AGENT_TASK_QUEUE: taskQueue,
    GOOGLE_GEMINI_BASE_URL: fake.url,
    DURABLE_AGENT_STORE: url,
  };
  for (const host of ['alpha', 'beta']) {
    homes[host] = fs.mkdtempSync(path.join(env.tmpDir, `travel-home-${host}-`));
    const worker = spawnWorker({ ...shared, DURABLE_AGENT_HOME: homes[host], WHO: host }, ['--host', host]);
    workers.push(worker);
    await polled(env.client, `${taskQueue}@${host}`, () => workers.map((w) => w.output()).join('\n'));
  }
}, CLUSTER_TIMEOUT_MS);

afterAll(async () => {
  for (const w of workers) w.kill('SIGKILL');
  await Promise.all(workers.map(exited));
  await fake?.close();
  await closeTestEnv();
  if (pgDir) await stopPostgres(pgDir);
}, 180_000);

/** The binary as host `host` runs it: its own home, the shared server and store. */
async function cli(host: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const cliEnv: NodeJS.ProcessEnv = { ...process.env, ...shared, DURABLE_AGENT_HOME: homes[host] };
  // No API key: the hosts' workers serve the session, this process only writes the workspace and starts it.
  delete cliEnv.GEMINI_API_KEY;
  return execute(process.execPath, [BIN, ...args], { env: cliEnv }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: { code: number; stdout: string; stderr: string }) => err,
  );
}

/** Every file under `dir` with its mode and bytes (base64), for byte-for-byte comparisons. */
function filesOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    const mode = (fs.statSync(full).mode & 0o777).toString(8);
    out[path.relative(dir, full)] = `${mode} ${fs.readFileSync(full).toString('base64')}`;
  }
  return out;
}

/** A prompt run alone on alpha: turn 1 writes a file, turn 2's command changes, deletes and adds files. */
async function promptOnAlpha(name: string): Promise<{ id: string; workspace: string }> {
  const workspace = fs.realpathSync(fs.mkdtempSync(path.join(env.tmpDir, `travel-${name}-`)));
  fs.mkdirSync(path.join(workspace, 'src'));
  fs.writeFileSync(path.join(workspace, 'src', 'keep.txt'), 'as it was\n');
  fs.writeFileSync(path.join(workspace, 'bin.dat'), Buffer.from([0, 1, 2, 255]));
  fs.writeFileSync(path.join(workspace, 'run.sh'), '#!/bin/sh\necho hi\n', { mode: 0o755 });
  const command = 'echo two >> a.txt && rm src/keep.txt && printf "\\003\\004" > bin.dat && echo "$WHO" > who.txt';
  fake.reset();
  fake.load([
    functionCallResponse({ name: 'write_file', args: { file_path: 'a.txt', content: 'one\n' } }),
    functionCallResponse({ name: 'run_shell_command', args: { command } }),
    textResponse('Done on alpha.'),
  ]);
  const input: PromptInput = {
    prompt: 'change things',
    workspace,
    model: 'gemini-test',
    approvalMode: 'yolo',
    maxTurns: 10,
    host: 'alpha',
  };
  const id = `travel-${name}-${Date.now()}`;
  const handle = await env.client.workflow.start('agentPromptWorkflow', { taskQueue, workflowId: id, args: [input] });
  expect(((await handle.result()) as PromptResult).response).toBe('Done on alpha.');
  expect(fs.readFileSync(path.join(workspace, 'who.txt'), 'utf8')).toBe('alpha\n');
  return { id, workspace };
}

test('fork on a host that never saw the workspace writes turn 1 byte for byte and continues there', async () => {
  const { id, workspace } = await promptOnAlpha('fork');
  const latest = filesOf(workspace);
  // A folder alpha never wrote, under beta's own home.
  const dir = path.join(homes.beta, 'forked');
  const forked = await cli('beta', ['fork', id, '--at', '1', '--workspace', dir, '--host', 'beta']);
  expect(forked).toMatchObject({ code: 0 });
  const sessionId = forked.stdout.split('\n')[0];
  expect(filesOf(dir)).toEqual({
    'a.txt': `644 ${Buffer.from('one\n').toString('base64')}`,
    'bin.dat': `644 ${Buffer.from([0, 1, 2, 255]).toString('base64')}`,
    'run.sh': `755 ${Buffer.from('#!/bin/sh\necho hi\n').toString('base64')}`,
    'src/keep.txt': `644 ${Buffer.from('as it was\n').toString('base64')}`,
  });
  expect(filesOf(workspace)).toEqual(latest);

  // The forked session's tools run on beta, in the folder the fork wrote.
  fake.load([
    functionCallResponse({ name: 'run_shell_command', args: { command: 'echo "$WHO" > where.txt' } }),
    textResponse('Continued on beta.'),
  ]);
  const result = await askSession(env.client, sessionId, 'go on');
  expect(result.response).toBe('Continued on beta.');
  expect(fs.readFileSync(path.join(dir, 'where.txt'), 'utf8')).toBe('beta\n');
  expect(fs.existsSync(path.join(workspace, 'where.txt'))).toBe(false);
  // Its conversation is the original's up to turn 1: the prompt, then turn 1's call and its response.
  const sent = (fake.requests[0].body as Sent).contents;
  const calls = sent.flatMap((c) => c.parts.flatMap((p) => (p.functionCall ? [p.functionCall.name] : [])));
  expect(calls).toEqual(['write_file']);
  expect(filesOf(workspace)).toEqual(latest);
}, 240_000);

test('a bad --host for fork is a usage error and writes nothing', async () => {
  const dir = path.join(homes.beta, 'never');
  const refused = await cli('beta', ['fork', 'any-id', '--at', '1', '--workspace', dir, '--host', 'no spaces']);
  expect(refused.code).toBe(42);
  expect(refused.stderr).toContain('is not a host name');
  expect(fs.existsSync(dir)).toBe(false);
}, 60_000);

/** The host queues the session scheduled its `restoreCheckpoint` activities on. */
async function restoreQueues(sessionId: string): Promise<string[]> {
  const history = await env.client.workflow.getHandle(sessionId).fetchHistory();
  return (history.events ?? []).flatMap((e) => {
    const a = e.activityTaskScheduledEventAttributes;
    return a?.activityType?.name === 'restoreCheckpoint' ? [a.taskQueue?.name ?? ''] : [];
  });
}

test("rewind from beta puts alpha's workspace back to turn 1 byte for byte, and --undo from beta brings turn 2 back", async () => {
  const { id, workspace } = await promptOnAlpha('back');
  const latest = filesOf(workspace);
  const rewound = await cli('beta', ['rewind', id, '--to', '1', '--host', 'beta']);
  expect(rewound).toMatchObject({ code: 0 });
  expect(rewound.stdout).toContain('Files: 1 created, 2 modified, 1 deleted');
  expect(filesOf(workspace)).toEqual({
    'a.txt': `644 ${Buffer.from('one\n').toString('base64')}`,
    'bin.dat': `644 ${Buffer.from([0, 1, 2, 255]).toString('base64')}`,
    'run.sh': `755 ${Buffer.from('#!/bin/sh\necho hi\n').toString('base64')}`,
    'src/keep.txt': `644 ${Buffer.from('as it was\n').toString('base64')}`,
  });
  // The files were written by alpha's worker, from the session, not by the beta process.
  const sessionId = `${id}-session`;
  expect(await restoreQueues(sessionId)).toEqual([`${taskQueue}@alpha`]);

  const undone = await cli('beta', ['rewind', id, '--undo', '--host', 'beta']);
  expect(undone).toMatchObject({ code: 0 });
  expect(filesOf(workspace)).toEqual(latest);
  expect(await restoreQueues(sessionId)).toEqual([`${taskQueue}@alpha`, `${taskQueue}@alpha`]);
}, 240_000);

test('a rewind of a workspace whose host has no worker says so, exits 42 and changes nothing', async () => {
  const sessionId = `travel-nohost-${Date.now()}`;
  const defaults = { workspace: path.join(env.tmpDir, 'on-gamma'), model: 'gemini-test', host: 'gamma' };
  await env.client.workflow.start('agentSessionWorkflow', { taskQueue, workflowId: sessionId, args: [{ defaults }] });
  const refused = await cli('beta', ['rewind', sessionId, '--to', '1', '--host', 'beta']);
  expect(refused.code).toBe(42);
  expect(refused.stderr).toContain('no worker of gamma is running');
  expect(await env.client.workflow.getHandle(sessionId).query(lastRewindQuery)).toBeNull();
}, 120_000);
