import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { errorLine, functionCallResponse, textResponse } from '../../src/fake-gemini';
import { BIN, CliProcess, createSandbox, killAllCli, NAMED_MODEL, type Sandbox } from '../helpers/cli';
import { TEST_ENV_VARS, closeTestEnv } from '../helpers/temporal-env';
import { createHarness, type Harness } from '../helpers/agent-harness';

/** Chat's `/status` and `/compress` through the binary, its stdin a pipe, on this file's worker and fake Gemini. */
let h: Harness;
let box: Sandbox;
let env: Record<string, string>;
beforeAll(async () => {
  h = await createHarness('chat-status');
  box = createSandbox('chat-status', process.env[TEST_ENV_VARS.address]);
  env = { DURABLE_AGENT_TASK_QUEUE: h.taskQueue, GOOGLE_GEMINI_BASE_URL: h.fake.url };
});
afterEach(() => killAllCli());
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

/** `durable-agent chat ID` in the default approval mode, with pipes for stdin and output. */
function chat(id: string): CliProcess {
  const child = spawn(process.execPath, [BIN, 'chat', id, ...NAMED_MODEL, '-w', box.workspace], {
    cwd: box.dir,
    env: box.env(env),
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  return new CliProcess(child, 90_000);
}

const writeCall = functionCallResponse({ name: 'write_file', args: { file_path: 'a.txt', content: 'A' } });

test('chat /status: session tokens, the running prompt, its call awaiting approval and the commands that answer it', async () => {
  h.fake.load([textResponse('One.'), writeCall, textResponse('written')]);
  const id = `chat-status-${Date.now()}`;
  const c = chat(id);
  c.child.stdin!.write('first\n');
  await c.waitFor('stdout', /One\./);
  c.child.stdin!.write('write a.txt\n');
  await c.waitFor('stderr', /needs approval/);
  c.child.stdin!.write('/status\n');
  const [status] = await c.waitFor('stderr', /^session [^\n]*prompt\(s\) done[^]*?tokens: [^\n]*\n/m);
  expect(status).toMatch(new RegExp(`^session ${id}: 1 prompt\\(s\\) done; open\\n`));
  expect(status).toMatch(/^ {2}tokens \(session, 2 prompt\(s\)\): [1-9]\d* in, \d+ out, \d+ cached$/m);
  expect(status).toContain(`running ${id}-p2: awaiting_approval after 1 turn(s)`);
  expect(status).toMatch(/^ {2}awaiting approval: \S+ write_file \{"file_path":"a.txt","content":"A"\}$/m);
  expect(status).toMatch(/^ {2}tokens: [1-9]\d* in, \d+ out, \d+ cached$/m);
  // The approve command works as printed (run without blocking: this process runs the worker).
  const [, approve] = status.match(/^ {4}approve: (.+)$/m)!;
  await promisify(execFile)('sh', ['-c', approve], { env: box.env(env) });
  await c.waitFor('stdout', /written/);
  c.child.stdin!.end();
  const result = await c.done;
  expect(result.code).toBe(0);
  expect(fs.readFileSync(path.join(box.workspace, 'a.txt'), 'utf8')).toBe('A');
});

test('chat /status before the first message, and with a bad argument, says so', async () => {
  const c = chat(`chat-status-new-${Date.now()}`);
  c.child.stdin!.end('/status\n/status now\n');
  const result = await c.done;
  expect(result.code).toBe(0);
  expect(result.stderr).toMatch(/starts with your first message\n/);
  expect(result.stderr).toContain('/status takes no argument');
});

test('chat /compress that the model fails names the model’s error in one line, and the chat goes on', async () => {
  const refused = errorLine(400, 'INVALID_ARGUMENT', 'the summary request was refused', 'generateContent');
  h.fake.load([textResponse('One.'), refused, textResponse('Two.')]);
  const c = chat(`chat-compress-error-${Date.now()}`);
  c.child.stdin!.end(`first ${'Some earlier discussion. '.repeat(100)}\n/compress\nsecond\n`);
  const result = await c.done;
  expect(result.code).toBe(0);
  expect(result.stdout).toBe('One.\nTwo.\n');
  expect(result.stderr).toMatch(/^Failed to compress chat history: \S+: .*the summary request was refused.*$/m);
  expect(result.stderr).not.toContain('Activity task failed');
});

test('chat /compress of a conversation with no place to split (three messages, no answer) calls no model', async () => {
  h.fake.load([writeCall]);
  const c = chat(`chat-compress-nothing-${Date.now()}`);
  c.child.stdin!.write('write a.txt\n');
  await c.waitFor('stderr', /needs approval/);
  c.child.kill('SIGINT');
  await c.waitFor('stderr', /cancelling/);
  c.child.stdin!.end('/compress\n');
  const result = await c.done;
  expect(result.code).toBe(0);
  expect(result.stderr).toContain('Nothing to compress.\n');
  expect(h.fake.requests).toHaveLength(1);
});

test('chat /compress of a short chat (two short exchanges) says "Nothing to compress." and calls no model', async () => {
  h.fake.load([textResponse('Hello.'), textResponse('You are welcome.')]);
  const c = chat(`chat-compress-short-${Date.now()}`);
  c.child.stdin!.end('hi\nthanks\n/compress\n');
  const result = await c.done;
  expect(result.code).toBe(0);
  expect(result.stdout).toBe('Hello.\nYou are welcome.\n');
  expect(result.stderr).toContain('Nothing to compress.\n');
  expect(h.fake.requests).toHaveLength(2);
});
