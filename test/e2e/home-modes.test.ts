/**
 * The agent's home holds prompts, tool outputs and command logs: under the common umask 022 it is
 * still created for its user alone, and a home that others can read is pointed out.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { expectExit, sandboxesCleanedAfterEach } from '../helpers/cli';

jest.setTimeout(180_000);

const sandbox = sandboxesCleanedAfterEach();
let umask: number;
beforeAll(() => (umask = process.umask(0o022)));
afterAll(() => process.umask(umask));

/** Everything under `dir` that users other than its owner could read, enter or write. */
function openEntries(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    const open = (fs.lstatSync(full).mode & 0o077) !== 0 && !entry.isSymbolicLink() ? [full] : [];
    return entry.isDirectory() ? [...open, ...openEntries(full)] : open;
  });
}

test('under umask 022 a new home is 0700, and what the agent writes there is 0700/0600', async () => {
  const box = sandbox('home-modes');
  const script = box.script([
    functionCallResponse({
      name: 'run_shell_command',
      args: { command: 'echo in-the-background', is_background: true },
    }),
    functionCallResponse({ name: 'write_file', args: { file_path: 'note.txt', content: 'a note\n' } }),
    textResponse('Done.'),
  ]);
  const result = await box.run([
    'run',
    'go',
    '--fake-responses',
    script,
    '--approval-mode',
    'yolo',
    '-w',
    box.workspace,
  ]);
  expectExit(result, 0);
  expect(fs.statSync(box.home).mode & 0o777).toBe(0o700);
  for (const dir of ['store', 'journal', 'background', 'temporal'])
    expect(fs.existsSync(path.join(box.home, dir))).toBe(true);
  // Temporal's own files sit in the 0700 temporal folder; everything of ours is private itself.
  expect(openEntries(box.home).filter((f) => !f.startsWith(path.join(box.home, 'temporal') + path.sep))).toEqual([]);
  // The workspace keeps the user's umask: the file the model wrote is an ordinary 0644 file.
  expect(fs.statSync(path.join(box.workspace, 'note.txt')).mode & 0o777).toBe(0o644);
  expect(result.stderr).not.toMatch(/can be read by other users/);
});

test('a home that others can read gets a warning saying how to fix it; the command still runs', async () => {
  const box = sandbox('home-open');
  fs.mkdirSync(box.home, { mode: 0o755 });
  fs.chmodSync(box.home, 0o755);
  const result = await box.run(['trust', '--list']);
  expectExit(result, 0);
  expect(result.stderr).toContain(`${box.home} (mode 755) can be read by other users`);
  expect(result.stderr).toContain(`chmod 700 '${box.home}'`);
});
