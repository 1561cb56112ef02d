import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createBackgroundShells, workerBackgroundShells } from './background';
import { createPrivateFile } from '../private-files';
import { createProcessRunner } from './spawner/runner';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'background-test-'));
let umask: number;
beforeAll(() => (umask = process.umask(0o022)));
const runner = createProcessRunner();
afterAll(() => (process.umask(umask), runner.close()));

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i += 1) await new Promise((r) => setTimeout(r, 25));
}

const modeOf = (file: string) => fs.lstatSync(file).mode & 0o777;

test('under umask 022, records and logs live in <home>/background: the folder 0700, its files 0600', async () => {
  const home = path.join(root, 'home');
  const shells = workerBackgroundShells(home, { runner });
  const pid = await shells.start('echo hello', root, root);
  let output = '';
  await until(() => {
    void shells.read(pid, root).then((r) => (output = r?.output ?? ''));
    return output.includes('hello');
  });
  expect(output).toBe('hello\n');
  const dir = path.join(home, 'background');
  expect(modeOf(dir)).toBe(0o700);
  const files = fs.readdirSync(dir);
  expect(files.map((f) => path.extname(f)).sort()).toEqual(['.json', '.log']);
  for (const file of files) expect(modeOf(path.join(dir, file))).toBe(0o600);
});

test('a symlink planted in place of the folder is refused: nothing starts, nothing is written through it', async () => {
  const elsewhere = fs.mkdtempSync(path.join(root, 'attacker-'));
  const dir = path.join(root, 'planted');
  fs.symlinkSync(elsewhere, dir);
  const shells = createBackgroundShells({ dir, runner });
  const marker = path.join(root, 'ran');
  await expect(shells.start(`touch ${marker}`, root, root)).rejects.toThrow(/not a directory/);
  expect(fs.readdirSync(elsewhere)).toEqual([]);
  await new Promise((r) => setTimeout(r, 200));
  expect(fs.existsSync(marker)).toBe(false);
});

test('a file is never created through a symlink planted at its name, nor over an existing file', () => {
  const target = path.join(root, 'victim.txt');
  fs.writeFileSync(target, 'precious');
  const link = path.join(root, 'planted.log');
  fs.symlinkSync(target, link);
  expect(() => createPrivateFile(link)).toThrow(/EEXIST/);
  expect(() => createPrivateFile(target)).toThrow(/EEXIST/);
  expect(fs.readFileSync(target, 'utf8')).toBe('precious');
});
