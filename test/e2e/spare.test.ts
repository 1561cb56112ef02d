/**
 * The spare process: a `worker` keeps one process with the CLI loaded, and
 * `run` hands its command to it over `<home>/spare.sock`. Output, exit codes and signals are those of
 * the in-process path (DURABLE_AGENT_SPARE=0); a dead client, a stale socket and a malformed request
 * lose nothing. One worker serves every case. Run `npm run build` first: the binary runs `dist/`.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { FakeGeminiServer, errorLine, functionCallResponse, textResponse } from '../../src/fake-gemini';
import {
  BIN,
  CliProcess,
  createSandbox,
  eventually,
  expectExit,
  killAllCli,
  processesOf,
  type Sandbox,
} from '../helpers/cli';
import { closeTestEnv, TEST_ENV_VARS } from '../helpers/temporal-env';

jest.setTimeout(120_000);

let fake: FakeGeminiServer;
let box: Sandbox;
let env: Record<string, string>;
let worker: CliProcess;
const socketPath = () => path.join(box.home, 'spare.sock');
const DEBUG = { DURABLE_AGENT_SPARE_DEBUG: '1' };
const LOCAL = { DURABLE_AGENT_SPARE: '0' };

beforeAll(async () => {
  fake = await FakeGeminiServer.start({ script: [] });
  box = createSandbox('spare', process.env[TEST_ENV_VARS.address]);
  env = { GOOGLE_GEMINI_BASE_URL: fake.url, DURABLE_AGENT_TASK_QUEUE: `spare-${Date.now()}` };
  worker = box.start(['worker'], { env, timeoutMs: 600_000 });
  await eventually(() => fs.existsSync(socketPath()), 60_000, `the spare's socket (${worker.stderr})`);
});

afterAll(async () => {
  await killAllCli([box.home]);
  await fake.close();
  await closeTestEnv();
});

const spareReady = () => eventually(() => fs.existsSync(socketPath()), 30_000, 'the next spare');
const servedBy = (stderr: string) => /served by spare process (\d+)/.exec(stderr)?.[1];
const withoutIds = (text: string) => text.replace(/prompt-\d+-[0-9a-f]+/g, 'ID');
const run = (args: string[], extra: Record<string, string> = {}) =>
  box.run(['run', ...args, '-w', box.workspace, '-y'], { env: { ...env, ...extra } });
const start = (args: string[]) => box.start(['run', ...args, '-w', box.workspace, '-y'], { env: { ...env, ...DEBUG } });
const alive = (pid: number) => {
  try {
    return process.kill(pid, 0);
  } catch {
    return false;
  }
};

test('a run is served by the spare, with the exit code and output of the in-process path; each spare serves one', async () => {
  const outcomes = [];
  for (const [lines, extra] of [
    [[textResponse('All done.')], DEBUG],
    [[textResponse('All done.')], LOCAL],
    [[errorLine(400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.')], {}],
    [[errorLine(400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.')], LOCAL],
    [[textResponse('All done.')], DEBUG],
  ] as const) {
    await spareReady();
    fake.load([...lines]);
    outcomes.push(await run(['do it'], extra));
  }
  const [spared, local, failedSpared, failedLocal, again] = outcomes;
  expectExit(spared, 0);
  expect(spared.stdout).toBe('All done.\n');
  expect(servedBy(spared.stderr)).toBeDefined();
  expect(servedBy(again.stderr)).toBeDefined();
  expect(servedBy(again.stderr)).not.toBe(servedBy(spared.stderr));
  const noDebug = (s: string) => withoutIds(s.replace(/durable-agent: served by spare process \d+\n/, ''));
  expect([local.code, local.stdout, withoutIds(local.stderr)]).toEqual([0, spared.stdout, noDebug(spared.stderr)]);
  expectExit(failedSpared, 1);
  expect(failedSpared.stderr).toContain('invalid argument');
  expect([failedLocal.code, failedLocal.stdout, withoutIds(failedLocal.stderr)]).toEqual([
    failedSpared.code,
    failedSpared.stdout,
    withoutIds(failedSpared.stderr),
  ]);
});

test('a prompt on standard input reaches the spare', async () => {
  await spareReady();
  fake.load([textResponse('Read it.')]);
  const child = spawn(process.execPath, [BIN, 'run', '-w', box.workspace, '-o', 'json'], {
    env: box.env({ ...env, ...DEBUG }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end('the prompt from a pipe');
  const result = await new CliProcess(child, 60_000).done;
  expectExit(result, 0);
  expect(servedBy(result.stderr)).toBeDefined();
  expect(JSON.parse(result.stdout).response).toBe('Read it.');
  expect(JSON.stringify(fake.requests.at(-1)?.body)).toContain('the prompt from a pipe');
});

/** A prompt that runs `sleep` until stopped: signals arrive while its shell call runs. */
async function sleepingRun(): Promise<{ cli: CliProcess; id: string; spare: number }> {
  await spareReady();
  fake.load([functionCallResponse({ name: 'run_shell_command', args: { command: 'sleep 60' } }), textResponse('x')]);
  const cli = start(['sleep please']);
  const [, id] = await cli.waitFor('stderr', /prompt (\S+) started/);
  await eventually(() => fake.requests.length > 0 && fake.requests.at(-1), 30_000, 'the model call');
  const spare = Number(servedBy(cli.stderr));
  expect(spare).toBeGreaterThan(0);
  return { cli, id, spare };
}

const statusOf = async (id: string) => JSON.parse((await box.run(['status', id, '--json'], { env })).stdout).status;

test('SIGINT cancels the prompt (130); SIGTERM leaves it running (143)', async () => {
  const interrupted = await sleepingRun();
  interrupted.cli.kill('SIGINT');
  expectExit(await interrupted.cli.done, 130);
  expect(await statusOf(interrupted.id)).toBe('cancelled');

  const terminated = await sleepingRun();
  terminated.cli.kill('SIGTERM');
  const result = await terminated.cli.done;
  expectExit(result, 143);
  expect(result.stderr).toContain(`SIGTERM: stopped following prompt ${terminated.id}; it was not cancelled.`);
  expect(await statusOf(terminated.id)).toBe('running');
  await box.run(['cancel', terminated.id], { env });
});

test('a client killed with SIGKILL: the prompt keeps running and its spare exits', async () => {
  const { cli, id, spare } = await sleepingRun();
  expect(alive(spare)).toBe(true);
  cli.kill('SIGKILL');
  await cli.done;
  await eventually(() => !alive(spare), 30_000, `spare ${spare} to exit`);
  expect(await statusOf(id)).toBe('running');
  await box.run(['cancel', id], { env });
});

test('a stale socket (its owner SIGKILLed) is passed over: the command runs here', async () => {
  const stale = createSandbox('spare-stale', process.env[TEST_ENV_VARS.address]);
  const sock = path.join(stale.home, 'spare.sock');
  fs.mkdirSync(stale.home, { recursive: true });
  const holder = spawn(process.execPath, [
    '-e',
    `require('net').createServer().listen(${JSON.stringify(sock)}, () => process.kill(process.pid, 'SIGKILL'))`,
  ]);
  await new Promise((resolve) => holder.once('exit', resolve));
  expect(fs.existsSync(sock)).toBe(true);
  fake.load([textResponse('Here.')]);
  const result = await stale.run(['run', 'hi', '-w', stale.workspace, '-y'], { env: { ...env, ...DEBUG } });
  expectExit(result, 0);
  expect(result.stdout).toBe('Here.\n');
  expect(servedBy(result.stderr)).toBeUndefined();
});

test('a malformed request or setting gets a clear error, ends that spare, and the next command is served', async () => {
  await spareReady();
  const socket = net.createConnection(socketPath());
  let received = '';
  socket.on('data', (d) => (received += d.toString('utf8')));
  await eventually(() => received.includes('"hello"'), 30_000, 'the hello');
  const spare = JSON.parse(received.split('\n')[0]).pid as number;
  socket.write('this is not json\n');
  await new Promise((resolve) => socket.once('close', resolve));
  const frames = received
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  const message = frames
    .filter((f) => f.t === 'err')
    .map((f) => Buffer.from(f.d, 'base64').toString('utf8'))
    .join('');
  expect(message).toBe('durable-agent: spare process: malformed request: a line that is not JSON\n');
  expect(frames.at(-1)).toEqual({ t: 'exit', code: 42 });
  await eventually(() => !alive(spare), 30_000, `spare ${spare} to exit`);
  await spareReady();
  const badSetting = await run(['hello'], { DURABLE_AGENT_SPARE: 'off' });
  expectExit(badSetting, 52);
  expect(badSetting.stderr).toContain('DURABLE_AGENT_SPARE must be 0 (no spare process) or 1');
  await spareReady();
  fake.load([textResponse('Still fine.')]);
  const next = await run(['hello'], DEBUG);
  expectExit(next, 0);
  expect(next.stdout).toBe('Still fine.\n');
  expect(servedBy(next.stderr)).toBeDefined();
  expect(Number(servedBy(next.stderr))).not.toBe(spare);
});

test('the spare never outlives its owner: a SIGKILLed worker takes its idle spare and the socket file along', async () => {
  await spareReady();
  const cmdline = (pid: number) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  const spares = processesOf(box.home).filter((pid) => cmdline(pid).includes('spare.js'));
  expect(spares).toHaveLength(1); // the idle one: each served spare ended with its command
  worker.kill('SIGKILL');
  await worker.done;
  await eventually(() => !alive(spares[0]), 30_000, `spare ${spares[0]} to exit`);
  expect(fs.existsSync(socketPath())).toBe(false);
});
