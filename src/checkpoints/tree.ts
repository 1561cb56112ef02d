import { BLOB_REF } from '../store/blob-ref';
import type { TranscriptStore } from '../store/types';
import type { Folder } from './folders';
import { isSafeRelative, type Manifest } from './manifest';

/**
 * How a checkpoint is stored since manifests were split per folder (as git's trees): the checkpoint's blob is a
 * small root record naming the top folder's tree, and each folder's tree is a blob of its own listing its files,
 * links and sub-folders (by their trees' references). A folder whose content did not change gives the same blob,
 * so a checkpoint after one changed file stores only the trees on that file's path and the root record.
 */
export interface StoredRoot {
  version: 2;
  tree: string;
  skipped: Manifest['skipped'];
  exclude: string[];
  bytes: number;
}

/** One folder: file name → [hash, mode, size], link name → target, sub-folder name → its tree's reference. */
interface Tree {
  f: Record<string, [string, number, number]>;
  l: Record<string, string>;
  d: Record<string, string>;
}

/** Stores a folder's tree (its sub-folders' trees stored already) and sets its reference and skip records. */
export async function storeFolderTree(store: TranscriptStore, folder: Folder): Promise<void> {
  const t = emptyTree();
  const skipped: Manifest['skipped'] = [];
  folder.names.forEach(({ name }, i) => {
    const s = folder.seen[i];
    if (s.kind === 'file') t.f[name] = [s.entry[4], s.mode, s.entry[0]];
    else if (s.kind === 'link') t.l[name] = s.target;
    else if (s.kind === 'dir') t.d[name] = s.folder.tree;
    else {
      const path = folder.rel === '' ? name : `${folder.rel}/${name}`;
      skipped.push(s.size === undefined ? { path, reason: s.reason } : { path, reason: s.reason, size: s.size });
    }
  });
  // Names in listing order: the same folder content always gives the same blob.
  folder.tree = await store.putBlob(JSON.stringify(t));
  folder.skipped = skipped;
  keepTree(folder.tree, t);
}

/** The checkpoint's own blob: small, whatever the workspace's size (the skip records aside). */
export function rootRecord(tree: string, skipped: Manifest['skipped'], exclude: string[], bytes: number): string {
  const root: StoredRoot = { version: 2, tree, skipped, exclude, bytes };
  return JSON.stringify(root);
}

function emptyTree(): Tree {
  return { f: {}, l: {}, d: {} };
}

/** Parsed trees by reference: a tree's content is its address, so a parsed one stays true. */
const knownTrees = new Map<string, Tree>();
const KEPT_TREES = 20_000;

/** The flat manifest a root record stands for, every tree read (each one checked) and joined. */
export async function loadTrees(store: TranscriptStore, root: StoredRoot, ref: string): Promise<Manifest> {
  const m: Manifest = {
    version: 1,
    files: {},
    links: {},
    dirs: [],
    skipped: root.skipped,
    exclude: root.exclude,
    bytes: root.bytes,
  };
  const visit = async (treeRef: string, rel: string) => {
    const t = await readTree(store, treeRef, ref);
    const at = (name: string) => (rel === '' ? name : `${rel}/${name}`);
    for (const [name, [hash, mode, size]] of Object.entries(t.f)) m.files[at(name)] = { hash, mode, size };
    for (const [name, target] of Object.entries(t.l)) m.links[at(name)] = target;
    for (const [name, sub] of Object.entries(t.d)) {
      m.dirs.push(at(name));
      await visit(sub, at(name));
    }
  };
  await visit(root.tree, '');
  m.dirs.sort();
  m.files = sortedRecord(m.files);
  m.links = sortedRecord(m.links);
  return m;
}

function sortedRecord<T>(r: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(r).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

async function readTree(store: TranscriptStore, treeRef: string, ref: string): Promise<Tree> {
  const known = knownTrees.get(treeRef);
  if (known) return known;
  if (!BLOB_REF.test(treeRef)) throw new Error(`${ref} is not a checkpoint: bad folder reference`);
  let t: Tree;
  try {
    t = JSON.parse(await store.getBlob(treeRef)) as Tree;
  } catch (err) {
    if (err instanceof SyntaxError) throw new Error(`${ref} is not a checkpoint: a folder's blob is not JSON`);
    throw err;
  }
  const problem = treeProblem(t);
  if (problem) throw new Error(`${ref} is not a checkpoint: ${problem}`);
  keepTree(treeRef, t);
  return t;
}

function keepTree(treeRef: string, t: Tree): void {
  if (knownTrees.size >= KEPT_TREES) knownTrees.clear();
  knownTrees.set(treeRef, t);
}

function treeProblem(t: Tree): string | undefined {
  if (typeof t !== 'object' || t === null) return 'a folder is not a tree';
  if (typeof t.f !== 'object' || typeof t.l !== 'object' || typeof t.d !== 'object') return 'a folder lists missing';
  const badName = (n: string) => !isSafeRelative(n) || n.includes('/');
  for (const [n, e] of Object.entries(t.f)) {
    if (badName(n)) return `unsafe path ${JSON.stringify(n)}`;
    if (!Array.isArray(e) || !BLOB_REF.test(e[0]) || typeof e[1] !== 'number' || typeof e[2] !== 'number')
      return `bad entry ${n}`;
  }
  for (const [n, target] of Object.entries(t.l)) if (badName(n) || typeof target !== 'string') return `bad link ${n}`;
  for (const [n, sub] of Object.entries(t.d)) if (badName(n) || typeof sub !== 'string') return `unsafe folder ${n}`;
  return undefined;
}
