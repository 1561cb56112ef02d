/**
 * `chat` on a real terminal (tmux, as in tty-approval.test.ts): a message, its approval answered in
 * the menu, then the chat's own input line again for the next message.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { BIN } from '../helpers/cli';
import { createHarness, type Harness } from '../helpers/agent-harness';
import { TEST_ENV_VARS, closeTestEnv } from '../helpers/temporal-env';
import { waitForScreen } from '../helpers/processes';

const run = promisify(execFile);
const TMUX = '/usr/bin/tmux';
const SCRUBBED =
  /^(GEMINI_API_KEY|GOOGLE_API_KEY|GOOGLE_GEMINI_BASE_URL|TEMPORAL_.*|DURABLE_AGENT_.*|DA_TEST_.*|TMUX.*)$/;

let h: Harness;
beforeAll(async () => {
  h = await createHarness('tty-chat');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

/** A tmux server of its own, its shell's environment pointed at the harness's server, queue and fake model. */
function terminal(dir: string) {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !SCRUBBED.test(k)));
  const env = {
    ...base,
    SHELL: '/bin/sh',
    TEMPORAL_ADDRESS: process.env[TEST_ENV_VARS.address]!,
    TEMPORAL_CLI_PATH: process.env[TEST_ENV_VARS.cliPath]!,
    DURABLE_AGENT_HOME: path.join(dir, 'home'),
    DURABLE_AGENT_TASK_QUEUE: h.taskQueue,
    GOOGLE_GEMINI_BASE_URL: h.fake.url,
  };
  const socket = `da-test-${process.pid}-${randomBytes(4).toString('hex')}`;
  const tmux = (...args: string[]) => run(TMUX, ['-L', socket, '-f', '/dev/null', ...args], { env });
  const screen = async () => (await tmux('capture-pane', '-p', '-J', '-S', '-', '-t', 'agent')).stdout;
  const type = (text: string) =>
    tmux('send-keys', '-t', 'agent', '-l', text).then(() => tmux('send-keys', '-t', 'agent', 'Enter'));
  return { tmux, screen, type };
}

test('on a terminal, chat asks an approval in place, then takes the next message, and /quit leaves', async () => {
  const dir = fs.mkdtempSync(path.join(process.env[TEST_ENV_VARS.tmpDir]!, 'tty-chat-'));
  const workspace = path.join(dir, 'ws');
  fs.mkdirSync(workspace);
  h.fake.load([
    functionCallResponse({ name: 'write_file', args: { file_path: 'hello.txt', content: 'hi\n' } }),
    textResponse('The file is written.'),
    textResponse('You are welcome.'),
  ]);
  const { tmux, screen, type } = terminal(dir);
  const id = `tty-chat-${Date.now()}`;
  const command = `cd ${dir} && ${process.execPath} ${BIN} chat ${id} -w ${workspace}; echo "[exit $?]"; sleep 600`;
  try {
    await tmux('new-session', '-d', '-s', 'agent', '-x', '200', '-y', '50', command);
    await waitForScreen(screen, /^> $/m);
    await type('write it');
    const menu = await waitForScreen(screen, /Choice \[1-4\]:/);
    expect(menu).toContain('? write_file needs approval');
    await type('1');
    await waitForScreen(screen, /The file is written\.\n> $/m);
    expect(fs.readFileSync(path.join(workspace, 'hello.txt'), 'utf8')).toBe('hi\n');
    await type('thanks');
    const after = await waitForScreen(screen, /You are welcome\.\n> $/m);
    // Each keystroke echoes once: the approval menu's input is gone once it is answered.
    expect(after).toMatch(/^> thanks$/m);
    await type('/quit');
    expect(await waitForScreen(screen, /\[exit \d+\]/)).toContain('[exit 0]');
  } finally {
    await tmux('kill-server').catch(() => undefined);
    await h.env.client.workflow
      .getHandle(id)
      .terminate('test over')
      .catch(() => undefined);
  }
});

test('durable-agent with no arguments on a terminal opens a chat on a new session named after the directory', async () => {
  const dir = fs.mkdtempSync(path.join(process.env[TEST_ENV_VARS.tmpDir]!, 'tty-bare-'));
  const workspace = path.join(dir, 'my-project');
  fs.mkdirSync(workspace);
  h.fake.load([textResponse('Hello from the bare chat.')]);
  const { tmux, screen, type } = terminal(dir);
  const command = `cd ${workspace} && ${process.execPath} ${BIN}; echo "[exit $?]"; sleep 600`;
  let id: string | undefined;
  try {
    await tmux('new-session', '-d', '-s', 'agent', '-x', '200', '-y', '50', command);
    const opened = await waitForScreen(screen, /^> $/m);
    id = /New session (my-project-\d{12}-[0-9a-f]{4})\./.exec(opened)?.[1];
    expect(id).toBeDefined();
    await type('hi');
    await waitForScreen(screen, /Hello from the bare chat\.\n> $/m);
    await type('/quit');
    expect(await waitForScreen(screen, /\[exit \d+\]/)).toContain('[exit 0]');
    const description = await h.env.client.workflow.getHandle(id!).describe();
    expect(description.type).toBe('agentSessionWorkflow');
  } finally {
    await tmux('kill-server').catch(() => undefined);
    if (id)
      await h.env.client.workflow
        .getHandle(id)
        .terminate('test over')
        .catch(() => undefined);
  }
});
