import { promises as fs, lstatSync } from 'node:fs';
import type { TranscriptStore } from '../store/types';
import { type Folder, type Walk, walkFolder } from './folders';
import type { Manifest } from './manifest';
import { StatCache } from './stat-cache';
import { rootRecord, storeFolderTree } from './tree';
import { excludeLayers } from './walk';

export interface SnapshotOptions {
  /** Patterns left out besides `.gitignore`s and `.git` (`.gitignore` syntax, relative to the root). */
  exclude?: string[];
  /** A larger file is skipped (recorded in the manifest's `skipped`). */
  maxFileBytes?: number;
  /** Files beyond this total size are skipped, in path order. */
  maxCheckpointBytes?: number;
  /** Where the host keeps its stat caches (one file per workspace); none: every file is read and hashed. */
  statCacheDir?: string;
}

export const DEFAULT_MAX_FILE_BYTES = 16 * 1024 * 1024;
export const DEFAULT_MAX_CHECKPOINT_BYTES = 512 * 1024 * 1024;

export interface Snapshot {
  /** The checkpoint: the root record's blob reference (`readManifest` gives its manifest). */
  ref: string;
  /** Files taken. */
  files: number;
  /** Files read and hashed (the others were known by their stat). */
  hashed: number;
  skipped: Manifest['skipped'];
}

/**
 * The folders of each workspace's last checkpoint in this process (with a stat cache), by root and settings: the
 * next checkpoint lists only the folders that changed and stores only the trees that did.
 */
const lastWalks = new Map<string, Map<string, Folder>>();
const KEPT_WALKS = 16;

/** Files read and stored at once on a checkpoint that has many to hash (the first one of a workspace). */
const READING = 8;

/**
 * Takes a checkpoint of the workspace at `root`: every file's bytes into the store (content-addressed, so
 * unchanged files cost nothing there) and one tree per folder, under a root record whose reference is returned.
 * Synchronous `lstat`s in one loop: on an unchanged workspace they are the whole cost, and the promise API would
 * cost more than the calls themselves; the event loop is held for that loop only (milliseconds for 10,000 files),
 * which the worker's activity heartbeats and other activities can wait.
 */
export async function snapshotWorkspace(
  store: TranscriptStore,
  root: string,
  options: SnapshotOptions = {},
): Promise<Snapshot> {
  const exclude = options.exclude ?? [];
  const fileCap = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const totalCap = options.maxCheckpointBytes ?? DEFAULT_MAX_CHECKPOINT_BYTES;
  const key = JSON.stringify([root, exclude, fileCap, totalCap, options.statCacheDir]);
  const old = options.statCacheDir ? lastWalks.get(key) : undefined;
  const cache = StatCache.open(options.statCacheDir, root);
  const reading = new Set<Promise<void>>();
  let hashed = 0;
  const startedAt = Date.now();
  const w: Walk = { cache, old, order: [], fileCap, totalCap, bytes: 0, files: 0, read: async () => {} };
  if (!old) w.seenPaths = new Set();
  w.read = async (folder, index, rel) => {
    const seen = folder.seen[index];
    if (seen.kind !== 'file') return;
    const done = storeFile(store, folder.names[index].abs).then((hash) => {
      reading.delete(done);
      if (!hash) return unreadable(w, folder, index);
      seen.entry[4] = hash;
      seen.entry[5] = startedAt;
      cache.remember(rel, seen.entry);
      hashed += 1;
    });
    reading.add(done);
    while (reading.size >= READING) await Promise.race(reading);
  };
  const top = await walkFolder(w, { rel: '', abs: root, stat: lstatSync(root), layers: excludeLayers(exclude) }, true);
  await Promise.all(reading);
  const skipped = await storeTrees(store, w);
  if (w.seenPaths) cache.keepOnly(w.seenPaths);
  cache.save();
  const ref = await store.putBlob(rootRecord(top.tree, skipped, exclude, w.bytes));
  if (options.statCacheDir) remember(key, w.order);
  return { ref, files: w.files, hashed, skipped };
}

/** A file that could not be read (gone since the walk, no permission) is recorded as skipped. */
function unreadable(w: Walk, folder: Folder, index: number): void {
  const seen = folder.seen[index];
  if (seen.kind === 'file') {
    w.bytes -= seen.entry[0];
    w.files -= 1;
  }
  folder.seen[index] = { kind: 'skip', reason: 'unreadable' };
}

/**
 * Stores the trees of the folders that changed, deepest first (a folder's tree names its sub-folders' trees);
 * a folder whose every name is seen as last time keeps its tree. Returns what was skipped, sorted by path.
 */
async function storeTrees(store: TranscriptStore, w: Walk): Promise<Manifest['skipped']> {
  for (let i = w.order.length - 1; i >= 0; i--) {
    const folder = w.order[i];
    const old = w.old?.get(folder.rel);
    if (old && sameAsBefore(folder, old)) {
      folder.tree = old.tree;
      folder.skipped = old.skipped;
    } else await storeFolderTree(store, folder);
  }
  const skipped = w.order.flatMap((f) => f.skipped);
  return skipped.sort((a, b) => (a.path < b.path ? -1 : 1));
}

function sameAsBefore(folder: Folder, old: Folder): boolean {
  if (folder.names !== old.names || old.tree === '') return false;
  return folder.seen.every((s, i) => {
    const was = old.seen[i];
    if (s === was) return true;
    if (s.kind === 'dir') return was.kind === 'dir' && s.folder.tree === was.folder.tree;
    return s.kind === 'skip' && was.kind === 'skip' && s.reason === was.reason && s.size === was.size;
  });
}

function remember(key: string, order: Folder[]): void {
  lastWalks.delete(key);
  lastWalks.set(key, new Map(order.map((f) => [f.rel, f])));
  if (lastWalks.size > KEPT_WALKS) lastWalks.delete(lastWalks.keys().next().value as string);
}

/** Stores a file's bytes; undefined when it cannot be read (gone since the walk, no permission). */
async function storeFile(store: TranscriptStore, file: string): Promise<string | undefined> {
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(file);
  } catch {
    return undefined;
  }
  return store.putBytes(bytes);
}
