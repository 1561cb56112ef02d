import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileTranscriptStore } from '../store/file-store';
import { compareManifests, diffCheckpoints, readManifest, restoreWorkspace, snapshotWorkspace } from '.';

let dir: string;
let root: string;
let store: FileTranscriptStore;
let cacheDir: string;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'da-cp-'));
  root = path.join(dir, 'ws');
  cacheDir = path.join(dir, 'stat-cache');
  await fs.mkdir(root);
  store = new FileTranscriptStore(path.join(dir, 'store'));
});
afterEach(() => fs.rm(dir, { recursive: true, force: true }));

async function write(files: Record<string, string | Buffer>): Promise<void> {
  for (const [p, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(root, p)), { recursive: true });
    await fs.writeFile(path.join(root, p), content);
  }
}

/** Every non-.git path under the root with its bytes (files), target (links) or '/' (folders), and mode. */
async function tree(at = root): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const visit = async (rel: string) => {
    for (const name of (await fs.readdir(path.join(at, rel))).sort()) {
      const p = rel ? `${rel}/${name}` : name;
      const st = await fs.lstat(path.join(at, p));
      if (st.isSymbolicLink()) out[p] = `-> ${await fs.readlink(path.join(at, p))}`;
      else if (st.isDirectory()) {
        out[p] = '/';
        await visit(p);
      } else out[p] = `${(st.mode & 0o777).toString(8)} ${(await fs.readFile(path.join(at, p))).toString('hex')}`;
    }
  };
  await visit('');
  return out;
}

const snap = async (options = {}) => {
  const taken = await snapshotWorkspace(store, root, { statCacheDir: cacheDir, ...options });
  return { ...taken, manifest: await readManifest(store, taken.ref) };
};

describe('snapshotWorkspace and restoreWorkspace', () => {
  it('restores files, binary bytes, modes, links and folders byte for byte, and says what it changed', async () => {
    const binary = Buffer.from([0, 1, 2, 255, 254, 0xc3, 0x28, 10, 0]);
    await write({ 'a.txt': 'one\n', 'bin/data.bin': binary, 'src/deep/x.ts': 'export {};\n', 'gone.txt': 'g' });
    await fs.chmod(path.join(root, 'a.txt'), 0o755);
    await fs.symlink('src/deep/x.ts', path.join(root, 'link-to-x'));
    await fs.symlink('/outside/never/followed', path.join(root, 'dangling'));
    await fs.mkdir(path.join(root, 'empty'));
    const before = await tree();
    const first = await snap();

    await write({ 'a.txt': 'changed\n', 'new/file.txt': 'created later', 'bin/data.bin': Buffer.from([9]) });
    await fs.chmod(path.join(root, 'src/deep/x.ts'), 0o600);
    await fs.rm(path.join(root, 'gone.txt'));
    await fs.rm(path.join(root, 'link-to-x'));
    await fs.symlink('a.txt', path.join(root, 'link-to-x'));
    await fs.rmdir(path.join(root, 'empty'));

    const result = await restoreWorkspace(store, first.ref, root, { statCacheDir: cacheDir });
    expect(await tree()).toEqual(before);
    expect(result).toEqual({
      created: ['empty', 'gone.txt'],
      modified: ['a.txt', 'bin/data.bin', 'link-to-x', 'src/deep/x.ts'],
      deleted: ['new', 'new/file.txt'],
    });
    expect(await restoreWorkspace(store, first.ref, root)).toEqual({ created: [], modified: [], deleted: [] });
  });

  it('restores into an empty folder (another machine) from the store alone', async () => {
    await write({ 'a/b.txt': 'b', 'c.bin': Buffer.from([0, 0, 7]) });
    const { ref } = await snap();
    const elsewhere = path.join(dir, 'fork');
    await fs.mkdir(elsewhere);
    const fresh = new FileTranscriptStore(path.join(dir, 'store'));
    await restoreWorkspace(fresh, ref, elsewhere);
    expect(await tree(elsewhere)).toEqual(await tree());
  });

  it('leaves .git, .gitignore entries (at any depth) and excluded patterns out, and alone on restore', async () => {
    await write({
      '.gitignore': 'build/\n*.log\n',
      'build/out.js': 'o',
      'x.log': 'l',
      'keep.txt': 'k',
      'sub/.gitignore': 'local.tmp\n',
      'sub/local.tmp': 't',
      'sub/kept.txt': 'k',
      '.git/HEAD': 'ref: x',
      'secrets/key': 's',
    });
    const { ref, manifest } = await snap({ exclude: ['secrets/'] });
    expect(Object.keys(manifest.files).sort()).toEqual(['.gitignore', 'keep.txt', 'sub/.gitignore', 'sub/kept.txt']);
    await write({ 'build/out.js': 'changed', 'x.log': 'changed', '.git/HEAD': 'changed', 'secrets/key': 'new' });
    await fs.rm(path.join(root, 'keep.txt'));
    const result = await restoreWorkspace(store, ref, root);
    expect(result).toEqual({ created: ['keep.txt'], modified: [], deleted: [] });
    const after = await tree();
    expect([after['build/out.js'], after['x.log'], after['.git/HEAD'], after['secrets/key']]).toEqual(
      ['changed', 'changed', 'changed', 'new'].map((t) => `644 ${Buffer.from(t).toString('hex')}`),
    );
  });

  it('skips files over the per-file cap and beyond the per-checkpoint cap, records why, and keeps them on restore', async () => {
    await write({ 'a.txt': '12345', 'b.txt': '123', 'c.txt': '1234567890123', 'd.txt': '1234' });
    const { ref, manifest } = await snap({ maxFileBytes: 10, maxCheckpointBytes: 9 });
    expect(Object.keys(manifest.files)).toEqual(['a.txt', 'b.txt']);
    expect(manifest.skipped).toEqual([
      { path: 'c.txt', reason: 'file-cap', size: 13 },
      { path: 'd.txt', reason: 'checkpoint-cap', size: 4 },
    ]);
    await write({ 'c.txt': 'big changed', 'a.txt': 'A' });
    await restoreWorkspace(store, ref, root);
    expect((await fs.readFile(path.join(root, 'c.txt'))).toString()).toBe('big changed');
    expect((await fs.readFile(path.join(root, 'a.txt'))).toString()).toBe('12345');
  });

  it('costs one stat for an unchanged file: only changed files are read and hashed', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 50; i++) files[`f${i}.txt`] = `file ${i}`;
    await write(files);
    // Older than the racy margin, as a workspace's files are.
    const old = new Date(Date.now() - 60_000);
    for (const p of Object.keys(files)) await fs.utimes(path.join(root, p), old, old);
    const first = await snap();
    expect(first.hashed).toBe(50);
    await write({ 'f7.txt': 'changed' });
    const second = await snap();
    expect(second.hashed).toBe(1);
    expect(compareManifests(first.manifest, second.manifest)).toEqual({ added: [], modified: ['f7.txt'], deleted: [] });
    // The cache is on disk, one file per workspace, for the next process on this host.
    expect((await fs.readdir(cacheDir)).length).toBe(1);
    // Without a cache every file is hashed again; the checkpoint is the same.
    const uncached = await snapshotWorkspace(store, root, {});
    expect(uncached.hashed).toBe(50);
    expect(uncached.ref).toBe(second.ref);
  });

  it('sees a file rewritten right after a checkpoint with the same size as changed', async () => {
    await write({ 'r.txt': 'aaaa' });
    const first = await snap();
    await write({ 'r.txt': 'bbbb' });
    const st = await fs.stat(path.join(root, 'r.txt'));
    expect((await readManifest(store, first.ref)).files['r.txt'].size).toBe(st.size);
    const second = await snap();
    expect(second.ref).not.toBe(first.ref);
    expect((await store.getBytes(second.manifest.files['r.txt'].hash)).toString()).toBe('bbbb');
  });
});

describe('diffCheckpoints', () => {
  it('lists added, modified and deleted paths, with unified diffs for text and none for binary files', async () => {
    await write({ 'a.txt': 'one\ntwo\n', 'b.bin': Buffer.from([0, 1]), 'c.txt': 'c\n' });
    const a = await snap();
    await write({ 'a.txt': 'one\nTWO\n', 'b.bin': Buffer.from([0, 2]), 'n.txt': 'new\n' });
    await fs.rm(path.join(root, 'c.txt'));
    const b = await snap();
    const diff = await diffCheckpoints(store, a.ref, b.ref, { text: true });
    expect(diff).toMatchObject({ added: ['n.txt'], modified: ['a.txt', 'b.bin'], deleted: ['c.txt'] });
    expect(diff.patches?.find((p) => p.path === 'a.txt')?.diff).toContain('-two\n+TWO');
    expect(diff.patches?.find((p) => p.path === 'b.bin')).toEqual({ path: 'b.bin', binary: true });
    expect(diff.patches?.find((p) => p.path === 'c.txt')?.diff).toContain('+++ /dev/null');
    expect((await diffCheckpoints(store, a.ref, b.ref)).patches).toBeUndefined();
  });

  it('refuses a reference that is not a checkpoint with a clear error', async () => {
    const notManifest = await store.putBlob('{"hello":1}');
    await expect(diffCheckpoints(store, notManifest, notManifest)).rejects.toThrow(/is not a checkpoint/);
    const unsafe = await store.putBlob(
      JSON.stringify({
        version: 1,
        files: { '../x': { hash: notManifest, mode: 420, size: 1 } },
        links: {},
        dirs: [],
        skipped: [],
        exclude: [],
        bytes: 1,
      }),
    );
    await expect(restoreWorkspace(store, unsafe, root)).rejects.toThrow(/unsafe path/);
  });
});
