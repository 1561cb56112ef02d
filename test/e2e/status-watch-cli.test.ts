/**
 * What `status`, `watch`, `worker` and `server` tell a person, through the real binary: the tool a
 * prompt runs now, the approval a watched prompt waits on (with commands that work as printed), and
 * start-up output with no log lines at the default level.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { eventually, expectExit, NAMED_MODEL, sandboxesCleanedAfterEach } from '../helpers/cli';
import { TEST_ENV_VARS } from '../helpers/temporal-env';

jest.setTimeout(180_000);

const sandbox = sandboxesCleanedAfterEach();
const shell = promisify(execFile);

test('status names the tool a prompt runs now, with its call id and how long it has run (text and --json)', async () => {
  const box = sandbox('status-tool', process.env[TEST_ENV_VARS.address]);
  const command = 'while [ ! -f go ]; do sleep 0.1; done; echo went';
  const script = box.script([
    functionCallResponse({ name: 'run_shell_command', args: { command } }),
    textResponse('done waiting'),
  ]);
  const run = box.start(
    [
      ...['run', 'wait for go', '--fake-responses', script, ...NAMED_MODEL, '-w', box.workspace],
      ...['--approval-mode', 'yolo', '-o', 'stream-json'],
    ],
    { env: {} },
  );
  const [, id] = await run.waitFor('stdout', /"session_id":"([^"]+)"/);
  const report = await eventually(
    async () => {
      const json = await box.run(['status', id, '--json']);
      const parsed = JSON.parse(json.stdout) as { runningTools?: Record<string, unknown>[] };
      return parsed.runningTools?.length ? parsed : undefined;
    },
    60_000,
    'status to name the running tool',
  );
  expect(report.runningTools).toEqual([
    { callId: expect.any(String), name: 'run_shell_command', args: { command }, runningMs: expect.any(Number) },
  ]);
  const callId = report.runningTools![0].callId as string;
  const text = await box.run(['status', id]);
  expectExit(text, 0);
  expect(text.stdout).toContain(`  running: ${callId} run_shell_command ${JSON.stringify({ command })} (for `);
  fs.writeFileSync(path.join(box.workspace, 'go'), '');
  expectExit(await run.done, 0);
  const after = JSON.parse((await box.run(['status', id, '--json'])).stdout) as Record<string, unknown>;
  expect(after).toMatchObject({ status: 'completed' });
  expect(after.runningTools).toBeUndefined();
});

test('watch shows a call awaiting approval with the approve and deny commands, which work as printed', async () => {
  const box = sandbox('watch-approval', process.env[TEST_ENV_VARS.address]);
  const write = functionCallResponse({ name: 'write_file', args: { file_path: 'w.txt', content: 'W' } });
  const script = box.script([write, textResponse('written')]);
  const run = box.start(['run', 'write w.txt', '--fake-responses', script, ...NAMED_MODEL, '-w', box.workspace]);
  const [, id] = await run.waitFor('stderr', /^ {2}approve: \S+ approve (\S+) /m);
  const watch = box.start(['watch', id]);
  const [line, approve] = await watch.waitFor('stderr', /^ {2}approve: (.+)$/m);
  expect(watch.stderr).toMatch(/^\? write_file \{"file_path":"w.txt","content":"W"\} needs approval \(call \S+\)\.$/m);
  expect(watch.stderr).toMatch(/^ {2}deny: +\S+ deny /m);
  expect(run.stderr).toContain(line);
  await shell('sh', ['-c', approve], { env: box.env() });
  const [watched, ran] = await Promise.all([watch.done, run.done]);
  expectExit(watched, 0);
  expectExit(ran, 0);
  expect(watched.stdout).toContain('written');
  expect(fs.readFileSync(path.join(box.workspace, 'w.txt'), 'utf8')).toBe('W');
});

test('worker logs nothing at start at the default level (warn); DURABLE_AGENT_LOG_LEVEL=info brings the lines back', async () => {
  const box = sandbox('worker-quiet', process.env[TEST_ENV_VARS.address]);
  const start = async (extra: Record<string, string>, until: RegExp) => {
    const worker = box.start(['worker', '--no-spare'], {
      env: { GEMINI_API_KEY: 'not-a-real-key', DURABLE_AGENT_TASK_QUEUE: `quiet-${Date.now()}`, ...extra },
    });
    await worker.waitFor('stderr', until);
    worker.kill('SIGTERM');
    return worker.done;
  };
  // At info, the pollers' start is logged after the ready line: once it shows, every start-up line has.
  const loud = await start({ DURABLE_AGENT_LOG_LEVEL: 'info' }, /^\{"level":30,.*"state":"RUNNING"/m);
  expect(loud.stderr).toContain('Ctrl-C stops.');
  const quiet = await start({}, /Ctrl-C stops\.\n/);
  expectExit(quiet, 0);
  expect(quiet.stderr).toMatch(/^stopping…$/m);
  expect(quiet.stderr.split('\n').filter((l) => l.startsWith('{'))).toEqual([]);
});
