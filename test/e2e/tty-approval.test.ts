/**
 * `run` on a real terminal: the binary runs inside a detached tmux session (its own socket and no
 * user configuration, so a developer's tmux is never touched), and the test reads the screen and
 * types keys as a person would.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { functionCallResponse, textResponse, toJsonl } from '../../src/fake-gemini';
import { TEST_ENV_VARS } from '../helpers/temporal-env';
import { waitForScreen } from '../helpers/processes';
import { QUESTIONS } from '../helpers/questions';

const run = promisify(execFile);
const BIN = path.resolve(__dirname, '..', '..', 'bin', 'durable-agent.js');
const TMUX = '/usr/bin/tmux';

/** Variables of the developer's shell that would change what the binary does. */
const SCRUBBED =
  /^(GEMINI_API_KEY|GOOGLE_API_KEY|GOOGLE_GEMINI_BASE_URL|TEMPORAL_.*|DURABLE_AGENT_.*|DA_TEST_.*|TMUX.*)$/;

function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run through jest, whose global setup provides it`);
  return value;
}

test('on a terminal, run shows the diff and a menu, and choice 1 lets the write proceed', async () => {
  const dir = fs.mkdtempSync(path.join(requireEnv(TEST_ENV_VARS.tmpDir), 'tty-approval-'));
  const workspace = path.join(dir, 'ws');
  fs.mkdirSync(workspace);
  const script = path.join(dir, 'script.jsonl');
  fs.writeFileSync(
    script,
    toJsonl([
      functionCallResponse({
        name: 'write_file',
        args: { file_path: 'hello.txt', content: 'hello from a terminal\n' },
      }),
      textResponse('The file is written.'),
    ]),
  );
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !SCRUBBED.test(k)));
  const env = {
    ...base,
    SHELL: '/bin/sh',
    TEMPORAL_ADDRESS: requireEnv(TEST_ENV_VARS.address),
    TEMPORAL_CLI_PATH: requireEnv(TEST_ENV_VARS.cliPath),
    DURABLE_AGENT_HOME: path.join(dir, 'home'),
  };
  const socket = `da-test-${process.pid}-${randomBytes(4).toString('hex')}`;
  const tmux = (...args: string[]) => run(TMUX, ['-L', socket, '-f', '/dev/null', ...args], { env });
  const screen = async () => (await tmux('capture-pane', '-p', '-J', '-S', '-', '-t', 'agent')).stdout;
  const command =
    `cd ${dir} && ${process.execPath} ${BIN} run --fake-responses ` +
    `${script} -w ${workspace} "write it"; echo "[exit $?]"; sleep 600`;
  try {
    await tmux('new-session', '-d', '-s', 'agent', '-x', '200', '-y', '50', command);
    const menu = await waitForScreen(screen, /Choice \[1-4\]:/);
    expect(menu).toContain('? write_file needs approval');
    expect(menu).toMatch(/^\s*\+hello from a terminal$/m);
    expect(menu).toContain('2. Allow always (for this prompt)');
    await tmux('send-keys', '-t', 'agent', '1', 'Enter');
    const end = await waitForScreen(screen, /\[exit \d+\]/);
    expect(end).toContain('The file is written.');
    expect(end).toContain('[exit 0]');
    expect(fs.readFileSync(path.join(workspace, 'hello.txt'), 'utf8')).toBe('hello from a terminal\n');
  } finally {
    await tmux('kill-server').catch(() => undefined);
  }
});

test('on a terminal, run asks the questions of ask_user in place and sends the typed answers', async () => {
  const dir = fs.mkdtempSync(path.join(requireEnv(TEST_ENV_VARS.tmpDir), 'tty-question-'));
  const workspace = path.join(dir, 'ws');
  fs.mkdirSync(workspace);
  const script = path.join(dir, 'script.jsonl');
  const ask = functionCallResponse({ name: 'ask_user', args: { questions: QUESTIONS } });
  fs.writeFileSync(script, toJsonl([ask, textResponse('Going with the answers.')]));
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !SCRUBBED.test(k)));
  const env = {
    ...base,
    SHELL: '/bin/sh',
    TEMPORAL_ADDRESS: requireEnv(TEST_ENV_VARS.address),
    DURABLE_AGENT_HOME: path.join(dir, 'home'),
  };
  const socket = `da-test-${process.pid}-${randomBytes(4).toString('hex')}`;
  const tmux = (...args: string[]) => run(TMUX, ['-L', socket, '-f', '/dev/null', ...args], { env });
  const screen = async () => (await tmux('capture-pane', '-p', '-J', '-S', '-', '-t', 'agent')).stdout;
  const command =
    `cd ${dir} && ${process.execPath} ${BIN} run --fake-responses ` +
    `${script} -w ${workspace} "ask me"; echo "[exit $?]"; sleep 600`;
  try {
    await tmux('new-session', '-d', '-s', 'agent', '-x', '200', '-y', '50', command);
    const first = await waitForScreen(screen, /Answer 0 of 0-1/);
    expect(first).toContain('0. [Database] Which database should the service use?');
    await tmux('send-keys', '-t', 'agent', 'Postgres', 'Enter');
    await waitForScreen(screen, /Answer 1 of 0-1/);
    await tmux('send-keys', '-t', 'agent', '5432', 'Enter');
    const end = await waitForScreen(screen, /\[exit \d+\]/);
    expect(end).toContain('answer recorded for');
    expect(end).toContain('Going with the answers.');
    expect(end).toContain('[exit 0]');
    expect(end).toMatch(/ask_user: .*Postgres.*5432/);
  } finally {
    await tmux('kill-server').catch(() => undefined);
  }
});
