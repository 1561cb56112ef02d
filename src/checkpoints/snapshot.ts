import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { TranscriptStore } from '../store/types';
import { compareManifests, type Manifest, type ManifestChanges } from './manifest';
import { readManifest, rememberManifest } from './read';
import { StatCache } from './stat-cache';
import { storeTrees } from './tree';
import { walkWorkspace, type WalkEntry } from './walk';

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
  /** The checkpoint: the manifest's blob reference. */
  ref: string;
  manifest: Manifest;
  /** Files read and hashed (the others were known by their stat). */
  hashed: number;
  /** What changed since `previous`, when one was given. */
  changes?: ManifestChanges;
}

/**
 * Takes a checkpoint of the workspace at `root`: every file's bytes into the store (content-addressed, so
 * unchanged files cost nothing there) and the manifest as a blob, whose reference is returned.
 */
export async function snapshotWorkspace(
  store: TranscriptStore,
  root: string,
  options: SnapshotOptions = {},
  previous?: string,
): Promise<Snapshot> {
  const exclude = options.exclude ?? [];
  const taking: Taking = {
    store,
    root,
    cache: StatCache.open(options.statCacheDir, root),
    startedAt: Date.now(),
    manifest: { version: 1, files: {}, links: {}, dirs: [], skipped: [], exclude, bytes: 0 },
    fileCap: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
    totalCap: options.maxCheckpointBytes ?? DEFAULT_MAX_CHECKPOINT_BYTES,
    hashed: 0,
    reading: new Set(),
  };
  const { manifest } = taking;
  for (const entry of walkWorkspace(root, exclude)) {
    if (entry.kind !== 'file') addOther(manifest, entry);
    else if (!takeFile(taking, entry)) await reserveReading(taking);
  }
  await Promise.all(taking.reading);
  manifest.skipped.sort((a, b) => (a.path < b.path ? -1 : 1));
  taking.cache.save();
  const ref = await store.putBlob(await storeTrees(store, manifest));
  rememberManifest(ref, manifest);
  const changes = previous ? compareManifests(await readManifest(store, previous), manifest) : undefined;
  return { ref, manifest, hashed: taking.hashed, ...(changes ? { changes } : {}) };
}

interface Taking {
  store: TranscriptStore;
  root: string;
  cache: StatCache;
  startedAt: number;
  manifest: Manifest;
  fileCap: number;
  totalCap: number;
  hashed: number;
  /** Files being read and stored: at most READING at once, so memory holds a bounded window of file contents. */
  reading: Set<Promise<void>>;
}

/** Files read and stored at once on a checkpoint that has many to hash (the first one of a workspace). */
const READING = 8;

/** Waits until fewer than READING files are being read and stored. */
async function reserveReading(t: Taking): Promise<void> {
  while (t.reading.size >= READING) await Promise.race(t.reading);
}

/**
 * A file goes in by its stat when the cache knows it, else it is read and stored (started here, finished later);
 * or it is skipped, with why. False when a read was started: the caller waits for room before the next one.
 */
function takeFile(t: Taking, entry: Extract<WalkEntry, { kind: 'file' }>): boolean {
  const { manifest } = t;
  const { size } = entry.stat;
  const cap = size > t.fileCap ? 'file-cap' : manifest.bytes + size > t.totalCap ? 'checkpoint-cap' : undefined;
  if (cap) {
    manifest.skipped.push({ path: entry.path, reason: cap, size });
    return true;
  }
  const file = { hash: t.cache.hashOf(entry.path, entry.stat) ?? '', mode: entry.stat.mode & 0o7777, size };
  manifest.files[entry.path] = file;
  manifest.bytes += size;
  if (file.hash) return true;
  const reading = storeFile(t.store, path.join(t.root, entry.path)).then((hash) => {
    t.reading.delete(reading);
    if (!hash) {
      delete manifest.files[entry.path];
      manifest.bytes -= size;
      return void manifest.skipped.push({ path: entry.path, reason: 'unreadable' });
    }
    file.hash = hash;
    t.cache.remember(entry.path, entry.stat, hash, t.startedAt);
    t.hashed += 1;
  });
  t.reading.add(reading);
  return false;
}

function addOther(manifest: Manifest, entry: Exclude<WalkEntry, { kind: 'file' }>): void {
  if (entry.kind === 'dir') manifest.dirs.push(entry.path);
  else if (entry.kind === 'link') manifest.links[entry.path] = entry.target;
  else manifest.skipped.push({ path: entry.path, reason: 'special' });
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
