import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { eventually, expectExit, sandboxesCleanedAfterEach } from '../helpers/cli';
import { TEST_ENV_VARS } from '../helpers/temporal-env';

jest.setTimeout(180_000);

const sandbox = sandboxesCleanedAfterEach();
const promptIdIn = (stderr: string) => /prompt (prompt-\S+) started/.exec(stderr)?.[1] as string;

test('approve, deny and pending on an ended prompt say it has ended and exit 42', async () => {
  const box = sandbox('ended', process.env[TEST_ENV_VARS.address]);
  const run = await box.run(['run', 'hi', '--fake-responses', box.script([textResponse('done')]), '-w', box.workspace]);
  expectExit(run, 0);
  const id = promptIdIn(run.stderr);
  for (const args of [
    ['approve', id],
    ['approve', id, 'call-1'],
    ['deny', id, 'call-1'],
    ['pending', id],
  ]) {
    const result = await box.run(args);
    expectExit(result, 42);
    expect(result.stderr).toContain(`prompt ${id} has ended (completed)`);
    expect(result.stderr).not.toMatch(/no worker|start one/);
  }
});

test('a scripted run killed with -9: pending and cancel name its queue and the command that serves it; terminate ends it', async () => {
  const box = sandbox('orphaned', process.env[TEST_ENV_VARS.address]);
  const script = box.script([
    functionCallResponse({ name: 'write_file', args: { file_path: 'o.txt', content: 'O' } }),
    textResponse('never'),
  ]);
  const run = box.start(['run', 'write o', '--fake-responses', script, '-w', box.workspace]);
  await run.waitFor('stderr', /needs approval/);
  const id = promptIdIn(run.stderr);
  run.kill('SIGKILL');
  await run.done;

  const pending = await box.run(['pending']);
  expectExit(pending, 0);
  const line = pending.stdout.split('\n').find((l) => l.startsWith(id)) ?? '';
  const queue = /no worker answered for prompt \S+ on task queue (\S+);/.exec(line)?.[1];
  expect(queue).toMatch(/-fake-/);
  expect(line).toContain(`DURABLE_AGENT_TASK_QUEUE=${queue} `);
  expect(line).toMatch(/ server --fake-responses FILE/);
  expect(line).not.toMatch(/start `durable-agent server`/);

  const cancel = await box.run(['cancel', id]);
  expectExit(cancel, 0);
  expect(cancel.stderr).toContain(`no worker answered on task queue ${queue}`);
  expect(cancel.stderr).toMatch(new RegExp(`terminate ${id}`));

  const terminate = await box.run(['terminate', id]);
  expectExit(terminate, 0);
  await eventually(
    async () => JSON.parse((await box.run(['status', id, '--json'])).stdout || '{}').status === 'terminated',
    30_000,
    'the prompt to be terminated',
  );
});

test('terminate of an unknown prompt exits 42', async () => {
  const box = sandbox('terminate-unknown', process.env[TEST_ENV_VARS.address]);
  const result = await box.run(['terminate', 'prompt-does-not-exist']);
  expectExit(result, 42);
});
