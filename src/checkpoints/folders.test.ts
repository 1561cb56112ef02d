import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileTranscriptStore } from '../store/file-store';
import { readManifest, restoreWorkspace, snapshotWorkspace } from '.';

let dir: string;
let root: string;
let store: FileTranscriptStore;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'da-cp-folders-'));
  root = path.join(dir, 'ws');
  await fs.mkdir(root);
  store = new FileTranscriptStore(path.join(dir, 'store'));
});
afterEach(() => fs.rm(dir, { recursive: true, force: true }));

async function write(files: Record<string, string>): Promise<void> {
  for (const [p, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(root, p)), { recursive: true });
    await fs.writeFile(path.join(root, p), content);
  }
}

const OLD = new Date(Date.now() - 60_000);

/** Every file and folder's mtime set a minute back, as a workspace's are: older than the racy margin. */
async function age(p = root): Promise<void> {
  for (const e of await fs.readdir(p, { withFileTypes: true })) {
    if (e.isDirectory()) await age(path.join(p, e.name));
    else await fs.utimes(path.join(p, e.name), OLD, OLD);
  }
  await fs.utimes(p, OLD, OLD);
}

/** A checkpoint with the host's stat cache (and so the process's memory of the last walk), and its file contents. */
async function snap(): Promise<{ ref: string; hashed: number; files: Record<string, string> }> {
  const taken = await snapshotWorkspace(store, root, { statCacheDir: path.join(dir, 'stat-cache') });
  const files: Record<string, string> = {};
  for (const [p, f] of Object.entries((await readManifest(store, taken.ref)).files)) {
    files[p] = (await store.getBytes(f.hash)).toString();
  }
  return { ref: taken.ref, hashed: taken.hashed, files };
}

describe('checkpoints that reuse the last walk', () => {
  it('sees a file rewritten with its size and mtime kept (its ctime moved) as changed', async () => {
    await write({ 'a.txt': 'aaaa', 'b.txt': 'bbbb' });
    await age();
    expect((await snap()).hashed).toBe(2);
    await fs.writeFile(path.join(root, 'a.txt'), 'AAAA');
    await fs.utimes(path.join(root, 'a.txt'), OLD, OLD);
    await fs.utimes(root, OLD, OLD);
    const second = await snap();
    expect(second.files).toEqual({ 'a.txt': 'AAAA', 'b.txt': 'bbbb' });
    expect(second.hashed).toBe(1);
  });

  it('sees a file replaced by another of the same size and mtime (another inode) as changed', async () => {
    await write({ 'a.txt': 'aaaa', 'b.txt': 'bbbb' });
    await age();
    await snap();
    await fs.writeFile(path.join(dir, 'other'), 'zzzz');
    await fs.utimes(path.join(dir, 'other'), OLD, OLD);
    await fs.rename(path.join(dir, 'other'), path.join(root, 'b.txt'));
    await fs.utimes(root, OLD, OLD);
    expect((await snap()).files).toEqual({ 'a.txt': 'aaaa', 'b.txt': 'zzzz' });
  });

  it('sees two folders swapped by renames, their own mtimes unchanged', async () => {
    await write({ 'a/f.txt': '1', 'b/f.txt': '2', 'b/g.txt': '3' });
    await age();
    const first = await snap();
    await fs.rename(path.join(root, 'a'), path.join(root, 'c'));
    await fs.rename(path.join(root, 'b'), path.join(root, 'a'));
    await fs.rename(path.join(root, 'c'), path.join(root, 'b'));
    await fs.utimes(root, OLD, OLD);
    const second = await snap();
    expect(second.files).toEqual({ 'a/f.txt': '2', 'a/g.txt': '3', 'b/f.txt': '1' });
    await restoreWorkspace(store, first.ref, root);
    expect((await snap()).files).toEqual(first.files);
  });

  it('sees a file replaced by a folder of the same name', async () => {
    await write({ x: 'file', 'y.txt': 'y' });
    await age();
    const first = await snap();
    await fs.rm(path.join(root, 'x'));
    await write({ 'x/inner.txt': 'inner' });
    await age();
    const second = await snap();
    expect(second.files).toEqual({ 'x/inner.txt': 'inner', 'y.txt': 'y' });
    expect((await readManifest(store, second.ref)).dirs).toEqual(['x']);
    await restoreWorkspace(store, first.ref, root);
    expect((await fs.readFile(path.join(root, 'x'))).toString()).toBe('file');
  });

  it('reads a folder again when a .gitignore above it changed, though no folder mtime moved', async () => {
    await write({ '.gitignore': '*.log\n', 'keep.txt': 'k', 'sub/x.log': 'x', 'sub/y.txt': 'y' });
    await age();
    expect(Object.keys((await snap()).files).sort()).toEqual(['.gitignore', 'keep.txt', 'sub/y.txt']);
    // Written in place: the folders' own mtimes stay, only the .gitignore's stat moves.
    await fs.writeFile(path.join(root, '.gitignore'), 'keep*\n');
    await age();
    expect(Object.keys((await snap()).files).sort()).toEqual(['.gitignore', 'sub/x.log', 'sub/y.txt']);
  });

  it('takes the same checkpoint with or without the last walk remembered', async () => {
    await write({ 'a/1.txt': '1', 'a/b/2.txt': '2', 'c.txt': 'c' });
    await fs.symlink('a/1.txt', path.join(root, 'link'));
    await age();
    await snap();
    await write({ 'a/b/2.txt': 'two', 'a/new.txt': 'n' });
    const remembered = await snap();
    const fresh = await snapshotWorkspace(store, root, {});
    expect(remembered.ref).toBe(fresh.ref);
    expect(remembered.hashed).toBe(2);
  });
});
