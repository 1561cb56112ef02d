/**
 * What a user of scripted runs is told through the real binary: a scripted chat resumed without its
 * script shows its recap and says how to go on; `run --detach` says that it turned the next-speaker
 * check on (a call a script must answer).
 */
import { spawn } from 'node:child_process';
import { BIN, CliProcess, expectExit, NAMED_MODEL, sandboxesCleanedAfterEach } from '../helpers/cli';
import { TEST_ENV_VARS } from '../helpers/temporal-env';
import { textResponse } from '../../src/fake-gemini';

jest.setTimeout(180_000);

const sandbox = sandboxesCleanedAfterEach();

test('a scripted chat resumed without --fake-responses (and no key) shows its recap, then says what it needs', async () => {
  const box = sandbox('scripted-chat', process.env[TEST_ENV_VARS.address]);
  const script = box.script([textResponse('Hello from the script.')]);
  const id = `scripted-chat-${Date.now()}`;
  const child = spawn(process.execPath, [BIN, 'chat', id, ...NAMED_MODEL, '--fake-responses', script], {
    cwd: box.dir,
    env: box.env(),
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdin.end('hello\n');
  const first = await new CliProcess(child, 90_000).done;
  expectExit(first, 0);
  expect(first.stdout).toBe('Hello from the script.\n');

  const resumed = await box.run(['chat', id]);
  expectExit(resumed, 42);
  expect(resumed.stderr).toContain(`Resuming session ${id}: 1 prompt(s) so far.`);
  expect(resumed.stderr).toContain(`Last prompt ${id}-p1 (completed), its answer:\n  Hello from the script.\n`);
  expect(resumed.stderr).toMatch(
    new RegExp(`was started with --fake-responses[^\\n]*: durable-agent chat ${id} --fake-responses FILE\\n`),
  );
  expect(resumed.stderr).not.toContain('GEMINI_API_KEY');
});

test('run --detach says once that it turned the next-speaker check on; not when the user chose', async () => {
  const box = sandbox('detach-note', process.env[TEST_ENV_VARS.address]);
  const env = { GEMINI_API_KEY: 'not-a-real-key', DURABLE_AGENT_TASK_QUEUE: `detach-note-${Date.now()}` };
  const started = await box.run(['run', '--detach', ...NAMED_MODEL, 'hello'], { env });
  expectExit(started, 0);
  expect(started.stderr.match(/next-speaker check is on/g)).toHaveLength(1);
  expect(started.stderr).toContain('--no-next-speaker-check turns it off');
  const chosen = await box.run(['run', '--detach', '--next-speaker-check', ...NAMED_MODEL, 'hello'], { env });
  expectExit(chosen, 0);
  expect(chosen.stderr).not.toContain('next-speaker');
  for (const id of [started.stdout.trim(), chosen.stdout.trim()]) expectExit(await box.run(['terminate', id]), 0);
});
