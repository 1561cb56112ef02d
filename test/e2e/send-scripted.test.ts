import { execFileSync } from 'node:child_process';
import { textResponse } from '../../src/fake-gemini';
import { BARE_PATH, expectExit, sandboxesCleanedAfterEach } from '../helpers/cli';
import { TEST_ENV_VARS } from '../helpers/temporal-env';

jest.setTimeout(180_000);

const sandbox = sandboxesCleanedAfterEach();

test('`send` to a session a scripted run started says at once that no worker serves it, and how to send', async () => {
  const box = sandbox('send-scripted', process.env[TEST_ENV_VARS.address]);
  const env = { DURABLE_AGENT_TASK_QUEUE: `send-scripted-${Date.now()}`, PATH: BARE_PATH };
  const session = `scripted-${Date.now()}`;
  const first = box.script([textResponse('first answer')]);
  const run = await box.run(['run', 'first', '--session', session, '--fake-responses', first, '-w', box.workspace], {
    env,
  });
  expectExit(run, 0);
  expect(run.stdout).toContain('first answer');

  const sent = await box.run(['send', session, 'second'], { env, timeoutMs: 60_000 });
  expectExit(sent, 1);
  expect(sent.stderr).toContain(`no worker serves session ${session}`);
  expect(sent.stderr).toContain('the message was not sent');
  const [, hint] = /send the message with a worker of its own: (.+)$/m.exec(sent.stderr) ?? [];
  expect(hint).toBeDefined();

  // The hint as printed, with its two placeholders filled in, from a shell that has neither program on PATH.
  const second = box.script([textResponse('second answer')]);
  const command = hint.replace('FILE', second).replace("'MESSAGE'", "'second'");
  const out = execFileSync('sh', ['-c', `cd ${box.workspace} && ${command}`], { env: box.env(env) }).toString();
  expect(out).toContain('second answer');
});
