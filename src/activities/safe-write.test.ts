import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { makeWorkspace, removeWorkspaces } from '../../test/helpers/tool-harness';
import { writeFileInside } from './safe-write';

afterAll(removeWorkspaces);

const insideOf = (root: string) => (p: string) => p === root || p.startsWith(`${root}/`);

describe('writeFileInside', () => {
  it('never lets a reader see the file emptied or half written while it is replaced', async () => {
    const a = 'a'.repeat(256 * 1024);
    const b = 'b'.repeat(256 * 1024);
    const { root } = await makeWorkspace({ 'big.txt': a });
    const file = path.join(root, 'big.txt');
    let writing = true;
    const seen = new Set<number>();
    const reader = (async () => {
      while (writing) seen.add((await fs.readFile(file, 'utf8')).length);
    })();
    for (let i = 0; i < 60; i += 1) await writeFileInside(root, file, i % 2 ? a : b, insideOf(root), 'big.txt');
    writing = false;
    await reader;
    expect([...seen]).toEqual([a.length]);
  });

  it('keeps the mode of the file it replaces and leaves no temporary file', async () => {
    const { root } = await makeWorkspace({ 'run.sh': 'echo old\n' });
    await fs.chmod(path.join(root, 'run.sh'), 0o751);
    await writeFileInside(root, path.join(root, 'run.sh'), 'echo new\n', insideOf(root), 'run.sh');
    expect((await fs.stat(path.join(root, 'run.sh'))).mode & 0o777).toBe(0o751);
    expect(await fs.readdir(root)).toEqual(['run.sh']);
  });

  it('refuses a read-only file as before, instead of replacing it', async () => {
    const { root } = await makeWorkspace({ 'locked.txt': 'keep' });
    await fs.chmod(path.join(root, 'locked.txt'), 0o444);
    const write = writeFileInside(root, path.join(root, 'locked.txt'), 'x', insideOf(root), 'locked.txt');
    // As root the kernel lets the in-place write through; as anyone else it is EACCES.
    if (process.getuid?.() === 0) await write;
    else await expect(write).rejects.toMatchObject({ code: 'EACCES' });
    expect((await fs.stat(path.join(root, 'locked.txt'))).mode & 0o777).toBe(0o444);
  });
});
