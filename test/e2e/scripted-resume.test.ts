import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { BARE_PATH, eventually, expectExit, sandboxesCleanedAfterEach } from '../helpers/cli';
import { TEST_ENV_VARS } from '../helpers/temporal-env';

jest.setTimeout(240_000);

const sandbox = sandboxesCleanedAfterEach();

test('a scripted run killed with kill -9 resumes, by the command `status` prints, at the next line', async () => {
  const box = sandbox('scripted-resume', process.env[TEST_ENV_VARS.address]);
  const env = { DURABLE_AGENT_TASK_QUEUE: `scripted-resume-${Date.now()}`, PATH: BARE_PATH };
  const write = (file: string) =>
    functionCallResponse({ name: 'write_file', args: { file_path: file, content: file } });
  const script = box.script([write('a.txt'), write('b.txt'), textResponse('both written')]);
  const args = ['run', 'write two files', '--approval-mode', 'yolo', '--fake-responses', script, '-w', box.workspace];
  const run = box.start(args, { env });
  const [, id] = await run.waitFor('stderr', /prompt (\S+) started/);
  await eventually(() => fs.existsSync(path.join(box.workspace, 'a.txt')), 60_000, 'a.txt to be written');
  process.kill(run.pid, 'SIGKILL');
  await run.done;
  // Were the script to start again from its first line, a.txt would be written once more.
  fs.writeFileSync(path.join(box.workspace, 'a.txt'), 'edited after the kill');

  const status = await box.run(['status', id], { env });
  const [, hint] = /start one with: (.+)$/m.exec(status.stderr + status.stdout) ?? [];
  expect(hint).toContain('--fake-responses FILE');
  // As printed, the placeholder filled in with the same script, from a shell with neither program on PATH.
  const server = spawn('sh', ['-c', hint.replace('FILE', script)], { env: box.env(env), stdio: 'ignore' });
  try {
    const done = await eventually(
      async () => {
        const json = await box.run(['status', id, '--json'], { env });
        const report = JSON.parse(json.stdout || '{}') as { status?: string };
        return report.status === 'completed' || report.status === 'failed' ? report : undefined;
      },
      120_000,
      `prompt ${id} to end`,
    );
    // Three turns, one per script line: the resumed worker did not start the script over.
    expect(done).toMatchObject({
      status: 'completed',
      turns: 3,
      response: expect.stringContaining('both written'),
      stats: { toolCalls: { total: 2, failed: 0 } },
    });
    expect(fs.readFileSync(path.join(box.workspace, 'b.txt'), 'utf8')).toBe('b.txt');
    expect(fs.readFileSync(path.join(box.workspace, 'a.txt'), 'utf8')).toBe('edited after the kill');
  } finally {
    server.kill('SIGTERM');
  }
});

test('a bad status id after a scripted run is bad input, as for any prompt', async () => {
  const box = sandbox('scripted-resume-bad', process.env[TEST_ENV_VARS.address]);
  const result = await box.run(['status', 'no-such-prompt'], { env: { PATH: BARE_PATH } });
  expectExit(result, 42);
});
