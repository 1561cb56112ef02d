import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import {
  callTool,
  errorOf,
  makeOutsideDir,
  makeWorkspace,
  outputOf,
  removeWorkspaces,
} from '../../test/helpers/tool-harness';

afterAll(removeWorkspaces);

const HOUR = 60 * 60 * 1000;

async function touch(root: string, relative: string, msAgo: number): Promise<void> {
  const when = new Date(Date.now() - msAgo);
  await fs.utimes(path.join(root, relative), when, when);
}

const listed = (output: string) => output.split('\n').slice(1);

describe('glob', () => {
  it('finds files at any depth with **, newest first, as workspace-relative paths', async () => {
    const { root, deps } = await makeWorkspace({ 'a.ts': '', 'src/b.ts': '', 'src/deep/c.ts': '', 'src/d.js': '' });
    await touch(root, 'a.ts', 3 * HOUR);
    await touch(root, 'src/b.ts', 1 * HOUR);
    await touch(root, 'src/deep/c.ts', 2 * HOUR);
    const output = outputOf(await callTool('glob', { pattern: '**/*.ts' }, deps));
    expect(output.split('\n')[0]).toBe(
      'Found 3 files matching "**/*.ts" in the workspace root, recently modified first:',
    );
    expect(listed(output)).toEqual(['src/b.ts', 'src/deep/c.ts', 'a.ts']);
  });

  it('lists files older than a day after recent ones, by path', async () => {
    const { root, deps } = await makeWorkspace({ 'z.md': '', 'b.md': '', 'a.md': '', 'new.md': '' });
    await touch(root, 'z.md', 50 * HOUR);
    await touch(root, 'b.md', 30 * HOUR);
    await touch(root, 'a.md', 40 * HOUR);
    expect(listed(outputOf(await callTool('glob', { pattern: '*.md' }, deps)))).toEqual([
      'new.md',
      'a.md',
      'b.md',
      'z.md',
    ]);
  });

  it('matches * within one directory only, and supports braces and classes', async () => {
    const { deps } = await makeWorkspace({
      'a.ts': '',
      'a.tsx': '',
      'b.js': '',
      'lib/c.ts': '',
      'f1.txt': '',
      'f2.txt': '',
    });
    expect(listed(outputOf(await callTool('glob', { pattern: '*.ts' }, deps)))).toEqual(['a.ts']);
    expect(listed(outputOf(await callTool('glob', { pattern: '*.{tsx,js}' }, deps))).sort()).toEqual(['a.tsx', 'b.js']);
    expect(listed(outputOf(await callTool('glob', { pattern: 'f[0-1].txt' }, deps)))).toEqual(['f1.txt']);
  });

  it('ignores case unless case_sensitive is set', async () => {
    const { deps } = await makeWorkspace({ 'README.md': '' });
    expect(listed(outputOf(await callTool('glob', { pattern: 'readme.MD' }, deps)))).toEqual(['README.md']);
    const strict = outputOf(await callTool('glob', { pattern: 'readme.MD', case_sensitive: true }, deps));
    expect(strict).toBe('No files match "readme.MD" in the workspace root.');
  });

  it('searches under dir_path but still returns workspace-relative paths', async () => {
    const { root, deps } = await makeWorkspace({ 'a.ts': '', 'pkg/src/b.ts': '' });
    expect(listed(outputOf(await callTool('glob', { pattern: '**/*.ts', dir_path: 'pkg' }, deps)))).toEqual([
      'pkg/src/b.ts',
    ]);
    const absolute = { pattern: path.join(root, 'pkg', 'src', '*.ts'), dir_path: path.join(root, 'pkg') };
    expect(listed(outputOf(await callTool('glob', absolute, deps)))).toEqual(['pkg/src/b.ts']);
  });

  it('skips .git and node_modules, and honours .gitignore unless told not to', async () => {
    const { deps } = await makeWorkspace({
      '.gitignore': 'dist/\n',
      'src/a.js': '',
      'dist/bundle.js': '',
      'node_modules/x/index.js': '',
      '.git/hooks/pre-commit.js': '',
    });
    const output = outputOf(await callTool('glob', { pattern: '**/*.js' }, deps));
    expect(output).toContain('(1 file hidden by .gitignore)');
    expect(listed(output)).toEqual(['src/a.js']);
    const all = outputOf(await callTool('glob', { pattern: '**/*.js', respect_git_ignore: false }, deps));
    expect(listed(all).sort()).toEqual(['dist/bundle.js', 'src/a.js']);
  });

  it('says when nothing matches', async () => {
    const { deps } = await makeWorkspace({ 'a.ts': '' });
    expect(outputOf(await callTool('glob', { pattern: '**/*.py' }, deps))).toBe(
      'No files match "**/*.py" in the workspace root.',
    );
  });

  it('refuses bad arguments and a dir_path that is not a directory', async () => {
    const { deps } = await makeWorkspace({ 'f.txt': '' });
    expect(errorOf(await callTool('glob', {}, deps)).kind).toBe('invalid_tool_params');
    expect(errorOf(await callTool('glob', { pattern: '  ' }, deps)).kind).toBe('invalid_tool_params');
    expect(errorOf(await callTool('glob', { pattern: '*', case_sensitive: 'no' }, deps)).kind).toBe(
      'invalid_tool_params',
    );
    expect(errorOf(await callTool('glob', { pattern: '*', dir_path: 'f.txt' }, deps)).kind).toBe('not_a_directory');
    expect(errorOf(await callTool('glob', { pattern: '*', dir_path: 'nope' }, deps)).kind).toBe('file_not_found');
  });

  it('stays inside the workspace: refuses outside dir_path and does not follow symlinks out', async () => {
    const { root, deps } = await makeWorkspace({ 'in.txt': '' });
    const outside = await makeOutsideDir({ 'secret.txt': '', 'deep/more.txt': '' });
    await fs.symlink(outside, path.join(root, 'out'));
    await fs.symlink(path.join(outside, 'secret.txt'), path.join(root, 'secret-link.txt'));
    for (const dir_path of ['..', '/etc', 'out']) {
      expect(errorOf(await callTool('glob', { pattern: '*', dir_path }, deps)).kind).toBe('path_outside_workspace');
    }
    expect(listed(outputOf(await callTool('glob', { pattern: '**/*.txt' }, deps)))).toEqual(['in.txt']);
  });
});

// A backtracking matcher needs hours for this pattern against these names; the jest timeout fails
// the test if that comes back (the waits let its timer fire after a blocked event loop).
test('a pattern of many stars against long names answers at once', async () => {
  const name = 'a'.repeat(40);
  const { deps } = await makeWorkspace({ [`b/${name}`]: '', [`${name}c`]: '', [`${name}/x`]: '' });
  const output = outputOf(await callTool('glob', { pattern: `**/${'*a'.repeat(12)}*c` }, deps));
  expect(listed(output)).toEqual([`${name}c`]);
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setTimeout(resolve, 0));
}, 10_000);
