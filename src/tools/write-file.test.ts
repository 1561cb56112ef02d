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

const exists = (file: string) =>
  fs.stat(file).then(
    () => true,
    () => false,
  );

describe('write_file', () => {
  it('creates a file and its missing parent directories', async () => {
    const { deps, read } = await makeWorkspace();
    const output = outputOf(await callTool('write_file', { file_path: 'src/new/a.ts', content: 'a\nb\n' }, deps));
    expect(output).toBe('Created src/new/a.ts (2 lines).');
    expect(await read('src/new/a.ts')).toBe('a\nb\n');
  });

  it('overwrites an existing file and says so', async () => {
    const { deps, read } = await makeWorkspace({ 'a.txt': 'old' });
    const output = outputOf(await callTool('write_file', { file_path: 'a.txt', content: 'new' }, deps));
    expect(output).toBe('Overwrote a.txt (1 line).');
    expect(await read('a.txt')).toBe('new');
  });

  it('writes empty content', async () => {
    const { deps, read } = await makeWorkspace();
    expect(outputOf(await callTool('write_file', { file_path: 'e.txt', content: '' }, deps))).toContain(
      'Created e.txt',
    );
    expect(await read('e.txt')).toBe('');
  });

  it('refuses a directory as the target', async () => {
    const { deps } = await makeWorkspace({ 'dir/x': '' });
    expect(errorOf(await callTool('write_file', { file_path: 'dir', content: 'x' }, deps)).kind).toBe('not_a_file');
  });

  it('refuses bad arguments', async () => {
    const { deps } = await makeWorkspace();
    const missing = errorOf(await callTool('write_file', { file_path: 'a.txt' }, deps));
    expect(missing).toMatchObject({ kind: 'invalid_tool_params', message: expect.stringContaining('"content"') });
    expect(errorOf(await callTool('write_file', { file_path: '', content: 'x' }, deps)).kind).toBe(
      'invalid_tool_params',
    );
  });

  it('writes nothing outside the workspace, whatever the path or symlink', async () => {
    const { root, deps } = await makeWorkspace();
    const outside = await makeOutsideDir({ 'keep.txt': 'unchanged' });
    await fs.symlink(outside, path.join(root, 'out'));
    await fs.symlink(path.join(outside, 'keep.txt'), path.join(root, 'keep-link'));
    await fs.symlink(path.join(outside, 'created.txt'), path.join(root, 'dangling'));
    const attempts = [
      '../escape.txt',
      path.join(outside, 'abs.txt'),
      'out/new.txt',
      'keep-link',
      'dangling',
      'out/sub/deep.txt',
    ];
    for (const file_path of attempts) {
      expect(errorOf(await callTool('write_file', { file_path, content: 'pwned' }, deps)).kind).toBe(
        'path_outside_workspace',
      );
    }
    expect(await fs.readdir(outside)).toEqual(['keep.txt']);
    expect(await fs.readFile(path.join(outside, 'keep.txt'), 'utf8')).toBe('unchanged');
    expect(await exists(path.join(path.dirname(root), 'escape.txt'))).toBe(false);
  });
});
