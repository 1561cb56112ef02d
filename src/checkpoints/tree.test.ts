import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileTranscriptStore } from '../store/file-store';
import { diffCheckpoints, readManifest, restoreWorkspace, snapshotWorkspace } from '.';

let dir: string;
let root: string;
let storeDir: string;
let store: FileTranscriptStore;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'da-cp-tree-'));
  root = path.join(dir, 'ws');
  storeDir = path.join(dir, 'store');
  await fs.mkdir(root);
  store = new FileTranscriptStore(storeDir);
});
afterEach(() => fs.rm(dir, { recursive: true, force: true }));

async function write(files: Record<string, string>): Promise<void> {
  for (const [p, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(root, p)), { recursive: true });
    await fs.writeFile(path.join(root, p), content);
  }
}

/** Every blob file in the store, by name. */
async function blobs(): Promise<Set<string>> {
  const entries = await fs.readdir(path.join(storeDir, 'blobs'), { withFileTypes: true, recursive: true });
  return new Set(entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name)));
}

const options = () => ({ statCacheDir: path.join(dir, 'stat-cache') });
const settle = () => new Promise((r) => setTimeout(r, 100));

describe('checkpoints stored as one tree per folder', () => {
  it('one changed file stores its bytes, the trees of the folders on its path and the root record, nothing else', async () => {
    const files: Record<string, string> = {};
    for (const top of ['a', 'b', 'c'])
      for (const sub of ['x', 'y']) for (let i = 0; i < 5; i++) files[`${top}/${sub}/f${i}.txt`] = `${top}${sub}${i}\n`;
    await write(files);
    await settle();
    const first = await snapshotWorkspace(store, root, options());
    await settle();
    const before = await blobs();

    await fs.writeFile(path.join(root, 'b/y/f3.txt'), 'changed\n');
    const second = await snapshotWorkspace(store, root, options());

    const added = [...(await blobs())].filter((b) => !before.has(b));
    // The file's new bytes, the trees of b/y, b and the top folder, and the root record.
    expect(added).toHaveLength(5);
    expect(second.hashed).toBe(1);
    expect(await diffCheckpoints(store, first.ref, second.ref)).toEqual({
      added: [],
      modified: ['b/y/f3.txt'],
      deleted: [],
    });
  });

  it('restores and diffs a checkpoint stored as one flat manifest (taken before the split)', async () => {
    await write({ 'keep.txt': 'kept\n', 'dir/old.txt': 'old\n' });
    const hash = async (text: string) => store.putBytes(Buffer.from(text));
    const flat = {
      version: 1,
      files: {
        'dir/old.txt': { hash: await hash('flat old\n'), mode: 0o644, size: 9 },
        'keep.txt': { hash: await hash('kept\n'), mode: 0o644, size: 5 },
      },
      links: { ln: 'keep.txt' },
      dirs: ['dir'],
      skipped: [],
      exclude: [],
      bytes: 14,
    };
    const ref = await store.putBlob(JSON.stringify(flat));
    const now = await snapshotWorkspace(store, root, options());

    const diff = await diffCheckpoints(store, ref, now.ref, { text: true });
    expect(diff).toMatchObject({ added: [], modified: ['dir/old.txt'], deleted: ['ln'] });
    await restoreWorkspace(store, ref, root);
    expect(await fs.readFile(path.join(root, 'dir/old.txt'), 'utf8')).toBe('flat old\n');
    expect(await fs.readlink(path.join(root, 'ln'))).toBe('keep.txt');
    expect((await readManifest(store, ref)).files).toEqual(flat.files);
  });

  it('refuses a folder tree with an unsafe name or a damaged entry with a clear error', async () => {
    const bad = await store.putBlob(
      JSON.stringify({ f: { '../escape': ['sha256:' + 'a'.repeat(64), 420, 1] }, l: {}, d: {} }),
    );
    const root1 = await store.putBlob(JSON.stringify({ version: 2, tree: bad, skipped: [], exclude: [], bytes: 1 }));
    await expect(readManifest(store, root1)).rejects.toThrow(/is not a checkpoint: unsafe path/);
    const notJson = await store.putBlob('not json');
    const root2 = await store.putBlob(
      JSON.stringify({ version: 2, tree: notJson, skipped: [], exclude: [], bytes: 0 }),
    );
    await expect(restoreWorkspace(store, root2, root)).rejects.toThrow(/is not a checkpoint: a folder's blob/);
  });

  it('takes the first checkpoint of many files a few at a time and restores every one byte for byte', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 200; i++) files[`d${i % 7}/f${i}.txt`] = `content ${i}\n`.repeat(i % 5);
    await write(files);
    const first = await snapshotWorkspace(store, root, options());
    expect(first.hashed).toBe(200);
    const copy = path.join(dir, 'copy');
    await fs.mkdir(copy);
    await restoreWorkspace(store, first.ref, copy);
    for (const [p, content] of Object.entries(files))
      expect(await fs.readFile(path.join(copy, p), 'utf8')).toBe(content);
  });

  it('keeps the stat cache across processes from its appended log: an unchanged file is not hashed again', async () => {
    await write({ 'a.txt': 'a', 'b.txt': 'b' });
    await snapshotWorkspace(store, root, options());
    await settle();
    await fs.writeFile(path.join(root, 'b.txt'), 'bb');
    await settle();
    await snapshotWorkspace(store, root, options());
    const cacheFiles = await fs.readdir(path.join(dir, 'stat-cache'));
    expect(cacheFiles.some((f) => f.endsWith('.log'))).toBe(true);
    jest.resetModules();
    const fresh = (await import('.')) as typeof import('.');
    await settle();
    expect((await fresh.snapshotWorkspace(store, root, options())).hashed).toBe(0);
  });
});
