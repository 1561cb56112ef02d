import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { createWorkspace } from '../activities/tool-deps';
import { makeOutsideDir, makeWorkspace, refusal, removeWorkspaces } from '../../test/helpers/tool-harness';

afterAll(removeWorkspaces);

describe('createWorkspace', () => {
  it('resolves relative and absolute paths inside the root, existing or not', async () => {
    const { root, deps } = await makeWorkspace({ 'src/a.ts': 'x' });
    const workspace = deps.workspace;
    expect(workspace.root).toBe(root);
    expect(await workspace.resolve('src/a.ts')).toBe(path.join(root, 'src/a.ts'));
    expect(await workspace.resolve(path.join(root, 'src/a.ts'))).toBe(path.join(root, 'src/a.ts'));
    expect(await workspace.resolve('new/dir/file.txt')).toBe(path.join(root, 'new/dir/file.txt'));
    expect(await workspace.resolve('src/../src/./a.ts')).toBe(path.join(root, 'src/a.ts'));
    expect(await workspace.resolve('.')).toBe(root);
    expect(workspace.relative(path.join(root, 'src/a.ts'))).toBe('src/a.ts');
    expect(workspace.relative(root)).toBe('.');
  });

  it('uses the real path of a symlinked root', async () => {
    const { root } = await makeWorkspace({ 'a.txt': 'x' });
    const outside = await makeOutsideDir();
    const alias = path.join(outside, 'alias');
    await fs.symlink(root, alias);
    const workspace = await createWorkspace(alias);
    expect(workspace.root).toBe(root);
    expect(await workspace.resolve(path.join(alias, 'a.txt'))).toBe(path.join(root, 'a.txt'));
  });

  it('refuses traversal and absolute paths outside the root', async () => {
    const { deps } = await makeWorkspace();
    for (const input of ['../x', '../../etc/passwd', '/etc/passwd', 'a/../../b']) {
      const error = await refusal(deps.workspace.resolve(input));
      expect(error.kind).toBe('path_outside_workspace');
      expect(error.message).toContain('outside the workspace');
    }
  });

  it('refuses a symlink to a file outside, and paths through a symlinked directory outside', async () => {
    const { root, deps } = await makeWorkspace();
    const outside = await makeOutsideDir({ 'secret.txt': 'secret' });
    await fs.symlink(path.join(outside, 'secret.txt'), path.join(root, 'link.txt'));
    await fs.symlink(outside, path.join(root, 'linked-dir'));
    for (const input of ['link.txt', 'linked-dir', 'linked-dir/secret.txt', 'linked-dir/new/file.txt']) {
      expect((await refusal(deps.workspace.resolve(input))).kind).toBe('path_outside_workspace');
    }
  });

  it('refuses a dangling symlink whose target would be created outside', async () => {
    const { root, deps } = await makeWorkspace();
    const outside = await makeOutsideDir();
    await fs.symlink(path.join(outside, 'not-yet.txt'), path.join(root, 'dangling'));
    await fs.symlink(path.join(outside, 'no-dir'), path.join(root, 'dangling-dir'));
    expect((await refusal(deps.workspace.resolve('dangling'))).kind).toBe('path_outside_workspace');
    expect((await refusal(deps.workspace.resolve('dangling-dir/x/y.txt'))).kind).toBe('path_outside_workspace');
  });

  it('allows symlinks that stay inside the root', async () => {
    const { root, deps } = await makeWorkspace({ 'real/a.txt': 'x' });
    await fs.symlink(path.join(root, 'real'), path.join(root, 'alias'));
    await fs.symlink('real/a.txt', path.join(root, 'relative-link'));
    expect(await deps.workspace.resolve('alias/a.txt')).toBe(path.join(root, 'real/a.txt'));
    expect(await deps.workspace.resolve('relative-link')).toBe(path.join(root, 'real/a.txt'));
  });

  it('walks files in name order, skipping .git, node_modules, symlinked directories and links outside', async () => {
    const { root, deps } = await makeWorkspace({
      'b.txt': '',
      'a/z.txt': '',
      'a/b/c.txt': '',
      '.git/config': '',
      'node_modules/x/index.js': '',
      'pkg/node_modules/y.js': '',
    });
    const outside = await makeOutsideDir({ 'o.txt': 'o' });
    await fs.symlink(outside, path.join(root, 'outside-dir'));
    await fs.symlink(path.join(outside, 'o.txt'), path.join(root, 'outside-link.txt'));
    await fs.symlink(path.join(root, 'b.txt'), path.join(root, 'inside-link.txt'));
    expect(await deps.workspace.walk(root)).toEqual(['a/b/c.txt', 'a/z.txt', 'b.txt', 'inside-link.txt']);
    expect(await deps.workspace.walk(path.join(root, 'a'))).toEqual(['b/c.txt', 'z.txt']);
    expect(await deps.workspace.walk(root, { limit: 2 })).toEqual(['a/b/c.txt', 'a/z.txt']);
  });

  it('never reads, writes, lists or walks through a directory swapped for a link after resolve', async () => {
    const { root, deps } = await makeWorkspace({ 'd/secret.txt': 'inside', 'd/sub/x.txt': 'x' });
    const outside = await makeOutsideDir({ 'secret.txt': 'OUTSIDE', 'sub/leak.txt': 'OUTSIDE' });
    const file = await deps.workspace.resolve('d/secret.txt');
    const dir = await deps.workspace.resolve('d');
    const sub = await deps.workspace.resolve('d/sub');
    // The time-of-check/time-of-use gap: the tool resolved the paths, then the tree changes.
    await fs.rename(path.join(root, 'd'), path.join(root, 'd.real'));
    await fs.symlink(outside, path.join(root, 'd'));
    expect((await refusal(deps.workspace.readFile(file))).kind).toBe('path_outside_workspace');
    expect((await refusal(deps.workspace.writeFile(path.join(dir, 'new.txt'), 'x'))).kind).toBe(
      'path_outside_workspace',
    );
    expect((await refusal(deps.workspace.readdir(dir))).kind).toBe('path_outside_workspace');
    expect(await deps.workspace.walk(sub)).toEqual([]);
    expect((await fs.readdir(outside)).sort()).toEqual(['secret.txt', 'sub']);
  });

  it('writes files, creating parent directories', async () => {
    const { root, deps } = await makeWorkspace();
    await deps.workspace.writeFile(path.join(root, 'x/y/z.txt'), 'hello');
    expect(await fs.readFile(path.join(root, 'x/y/z.txt'), 'utf8')).toBe('hello');
    expect(await deps.workspace.stat(path.join(root, 'x/y/z.txt'))).toMatchObject({ isFile: true, size: 5 });
    expect(await deps.workspace.stat(path.join(root, 'missing'))).toBeUndefined();
  });
});
