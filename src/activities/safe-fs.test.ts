import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { makeOutsideDir, makeWorkspace, refusal, removeWorkspaces } from '../../test/helpers/tool-harness';
import { listInside, readFileInside } from './safe-fs';
import { writeFileInside } from './safe-write';

afterAll(removeWorkspaces);

/** A workspace where `d` has been swapped for a link to an outside folder after `resolve` said `d/f.txt`. */
async function swapped() {
  const { root } = await makeWorkspace({ 'd/f.txt': 'inside' });
  const outside = await makeOutsideDir({ 'f.txt': 'OUTSIDE' });
  await fs.rm(path.join(root, 'd'), { recursive: true });
  await fs.symlink(outside, path.join(root, 'd'));
  const isInside = (p: string) => p === root || p.startsWith(`${root}/`);
  return { root, outside, isInside, file: path.join(root, 'd', 'f.txt') };
}

describe('safe-fs', () => {
  it('refuses to read, list or write through a directory swapped for a link to outside', async () => {
    const { root, outside, isInside, file } = await swapped();
    expect((await refusal(readFileInside(file, isInside, 'd/f.txt'))).kind).toBe('path_outside_workspace');
    expect((await refusal(listInside(path.join(root, 'd'), isInside, 'd'))).kind).toBe('path_outside_workspace');
    const write = await refusal(writeFileInside(root, file, 'x', isInside, 'd/f.txt'));
    expect(write.kind).toBe('path_outside_workspace');
    expect(write.message).toContain('Nothing was read or written');
    expect(await fs.readFile(path.join(outside, 'f.txt'), 'utf8')).toBe('OUTSIDE');
  });

  it('refuses a file that became a symlink, even one pointing inside', async () => {
    const { root } = await makeWorkspace({ 'a.txt': 'a', 'b.txt': 'b' });
    const isInside = (p: string) => p.startsWith(`${root}/`);
    await fs.rm(path.join(root, 'a.txt'));
    await fs.symlink(path.join(root, 'b.txt'), path.join(root, 'a.txt'));
    expect((await refusal(readFileInside(path.join(root, 'a.txt'), isInside, 'a.txt'))).kind).toBe(
      'path_outside_workspace',
    );
    await refusal(writeFileInside(root, path.join(root, 'a.txt'), 'x', isInside, 'a.txt'));
    expect(await fs.readFile(path.join(root, 'b.txt'), 'utf8')).toBe('b');
  });

  it('writes in place, keeping the mode and hard links of an existing file, and creates parents', async () => {
    const { root } = await makeWorkspace({ 'a.txt': 'old content' });
    const isInside = (p: string) => p === root || p.startsWith(`${root}/`);
    await fs.chmod(path.join(root, 'a.txt'), 0o640);
    await fs.link(path.join(root, 'a.txt'), path.join(root, 'hard.txt'));
    await writeFileInside(root, path.join(root, 'a.txt'), 'new', isInside, 'a.txt');
    expect(await fs.readFile(path.join(root, 'hard.txt'), 'utf8')).toBe('new');
    expect((await fs.stat(path.join(root, 'a.txt'))).mode & 0o777).toBe(0o640);
    await writeFileInside(root, path.join(root, 'x/y/z.txt'), 'deep', isInside, 'x/y/z.txt');
    expect(await fs.readFile(path.join(root, 'x/y/z.txt'), 'utf8')).toBe('deep');
  });

  it('says so when a part of the path is a file', async () => {
    const { root } = await makeWorkspace({ 'a.txt': 'a' });
    const isInside = (p: string) => p === root || p.startsWith(`${root}/`);
    const error = await refusal(writeFileInside(root, path.join(root, 'a.txt/b.txt'), 'x', isInside, 'a.txt/b.txt'));
    expect(error.kind).toBe('not_a_directory');
  });

  it('lists a symlink leading out as a plain empty entry, one staying inside by its target', async () => {
    const { root } = await makeWorkspace({ 'sub/a.txt': 'a' });
    const outside = await makeOutsideDir({ 'big.txt': 'x'.repeat(1000) });
    const isInside = (p: string) => p === root || p.startsWith(`${root}/`);
    await fs.symlink(outside, path.join(root, 'out'));
    await fs.symlink(path.join(root, 'sub'), path.join(root, 'in'));
    const entries = await listInside(root, isInside, '.');
    const byName = Object.fromEntries(entries.map((e) => [e.name, e.isDirectory]));
    expect(byName).toEqual({ sub: true, in: true, out: false });
  });
});
