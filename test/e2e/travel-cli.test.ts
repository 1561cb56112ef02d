/**
 * Time travel through the binary, as a user types it after a prompt run on its own: `checkpoints` and `diff` with no
 * API key (they only read), `rewind --to 1` putting the files back byte for byte, and the printed `--undo`. Run
 * `npm run build` first: the binary runs `dist/`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { expectExit, sandboxesCleanedAfterEach } from '../helpers/cli';
import { closeTestEnv, TEST_ENV_VARS } from '../helpers/temporal-env';

jest.setTimeout(240_000);

const sandbox = sandboxesCleanedAfterEach();
afterAll(async () => {
  await closeTestEnv();
});

test('checkpoints, diff and rewind of a prompt run on its own work as printed', async () => {
  const box = sandbox('travel-cli', process.env[TEST_ENV_VARS.address]);
  const file = (name: string) => path.join(box.workspace, name);
  fs.writeFileSync(file('keep.txt'), 'as it was\n');
  const script = box.script([
    functionCallResponse({ name: 'write_file', args: { file_path: 'a.txt', content: 'one\n' } }),
    functionCallResponse({ name: 'run_shell_command', args: { command: 'echo two >> a.txt && rm keep.txt' } }),
    textResponse('Done.'),
  ]);
  const ran = await box.run([
    'run',
    'change things',
    '-y',
    '-o',
    'json',
    '-w',
    box.workspace,
    '--fake-responses',
    script,
  ]);
  expectExit(ran, 0);
  const id = (JSON.parse(ran.stdout) as { session_id: string }).session_id;
  expect(fs.readFileSync(file('a.txt'), 'utf8')).toBe('one\ntwo\n');

  // No API key in the environment: looking back needs none.
  const listed = await box.run(['checkpoints', id, '--json']);
  expectExit(listed, 0);
  const { turns } = JSON.parse(listed.stdout) as { turns: { turn: number; calls: { name: string }[] }[] };
  expect(turns.map((t) => [t.turn, t.calls.map((c) => c.name)])).toEqual([
    [1, ['write_file']],
    [2, ['run_shell_command']],
    [3, []],
  ]);
  const diff = await box.run(['diff', id, '--turn', '2']);
  expectExit(diff, 0);
  expect(diff.stdout).toContain('+two');
  expect(diff.stdout).toContain('-as it was');

  // A rewind starts a worker for the session it makes, which serves model calls too: that worker needs a key.
  const withKey = { env: { GEMINI_API_KEY: 'unused-by-a-rewind' } };
  const rewound = await box.run(['rewind', id, '--to', '1'], withKey);
  expectExit(rewound, 0);
  expect(fs.readFileSync(file('a.txt'), 'utf8')).toBe('one\n');
  expect(fs.readFileSync(file('keep.txt'), 'utf8')).toBe('as it was\n');
  const undo = /Undo: (.+) rewind (\S+) --undo/.exec(rewound.stdout);
  expect(undo).not.toBeNull();
  const undone = await box.run(['rewind', undo![2], '--undo'], withKey);
  expectExit(undone, 0);
  expect(fs.readFileSync(file('a.txt'), 'utf8')).toBe('one\ntwo\n');
  expect(fs.existsSync(file('keep.txt'))).toBe(false);
});
