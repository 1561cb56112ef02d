import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { BARE_PATH, expectExit, sandboxesCleanedAfterEach } from '../helpers/cli';
import { TEST_ENV_VARS } from '../helpers/temporal-env';

jest.setTimeout(180_000);

const sandbox = sandboxesCleanedAfterEach();

test('the approval hints of `run` work as printed from a shell whose PATH has neither program', async () => {
  for (const name of ['durable-agent', 'temporal'])
    expect(spawnSync('sh', ['-c', `command -v ${name}`], { env: { PATH: BARE_PATH } }).status).not.toBe(0);
  const box = sandbox('hints', process.env[TEST_ENV_VARS.address]);
  const write = (file: string) =>
    functionCallResponse({ name: 'write_file', args: { file_path: file, content: file } });
  const script = box.script([write('a.txt'), write('b.txt'), textResponse('both written')]);
  const bare = { PATH: BARE_PATH, TEMPORAL_CLI_PATH: undefined };
  const run = box.start(['run', 'write two files', '--fake-responses', script, '-w', box.workspace], { env: bare });
  const shell = (command: string) => execFileSync('sh', ['-c', command], { env: box.env(bare) });

  const [, approve] = await run.waitFor('stderr', /^ {2}approve: (.+)$/m);
  shell(approve);
  await run.waitFor('stderr', /needs approval \(call \S+\)[^]*needs approval/);
  const signal = [...run.stderr.matchAll(/^ {2}or: +(.+)$/gm)].at(-1)![1];
  expect(signal).toMatch(/ workflow signal /);
  shell(signal);

  const result = await run.done;
  expectExit(result, 0);
  expect(result.stdout).toContain('both written');
  expect(fs.readFileSync(path.join(box.workspace, 'b.txt'), 'utf8')).toBe('b.txt');
});
