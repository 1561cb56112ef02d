import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { blobRef } from '../store/blob-ref';
import type { TranscriptStore } from '../store/types';
import type { Manifest } from './manifest';
import { readManifest } from './read';
import { StatCache } from './stat-cache';
import { walkWorkspace, type WalkEntry } from './walk';

export interface RestoreResult {
  /** Paths the restore wrote anew (they were missing), rewrote (different bytes, mode or link), or removed. */
  created: string[];
  modified: string[];
  deleted: string[];
}

/**
 * Makes the workspace at `root` what checkpoint `ref` recorded, byte for byte: files and links made since are
 * removed, changed ones rewritten, modes and links restored, folders made or removed. Paths the checkpoint left
 * out (ignored, excluded, skipped) are left as they are. Returns what it changed.
 */
export async function restoreWorkspace(
  store: TranscriptStore,
  ref: string,
  root: string,
  options: { statCacheDir?: string } = {},
): Promise<RestoreResult> {
  const manifest = await readManifest(store, ref);
  const result: RestoreResult = { created: [], modified: [], deleted: [] };
  const current = new Map<string, WalkEntry>();
  for (const entry of walkWorkspace(root, manifest.exclude)) current.set(entry.path, entry);
  removeExtra(root, manifest, current, result);
  for (const dir of manifest.dirs) makeFolder(root, dir, current, result);
  const cache = StatCache.open(options.statCacheDir, root);
  for (const [p, file] of Object.entries(manifest.files)) {
    const entry = current.get(p);
    if (entry?.kind === 'file' && sameFile(root, cache, entry, file)) continue;
    const bytes = await store.getBytes(file.hash);
    clear(root, p, entry);
    writeFile(path.join(root, p), bytes, file.mode);
    (entry ? result.modified : result.created).push(p);
  }
  for (const [p, target] of Object.entries(manifest.links)) {
    const entry = current.get(p);
    if (entry?.kind === 'link' && entry.target === target) continue;
    clear(root, p, entry);
    fs.symlinkSync(target, path.join(root, p));
    (entry ? result.modified : result.created).push(p);
  }
  for (const list of Object.values(result)) (list as string[]).sort();
  return result;
}

/** Removes what the checkpoint does not hold, deepest first; skipped paths (too large, special) stay. */
function removeExtra(root: string, m: Manifest, current: Map<string, WalkEntry>, result: RestoreResult): void {
  const kept = new Set(m.skipped.map((s) => s.path));
  const dirs = new Set(m.dirs);
  for (const entry of [...current.values()].reverse()) {
    const p = entry.path;
    if (kept.has(p) || p in m.files || p in m.links || (entry.kind === 'dir' && dirs.has(p))) continue;
    if (entry.kind === 'special') continue;
    if (entry.kind === 'dir') {
      // A folder the checkpoint lacks goes only if nothing is left in it (ignored files stay, and so does it).
      if (fs.readdirSync(path.join(root, p)).length > 0) continue;
      fs.rmdirSync(path.join(root, p));
    } else {
      fs.unlinkSync(path.join(root, p));
    }
    current.delete(p);
    result.deleted.push(p);
  }
}

function makeFolder(root: string, p: string, current: Map<string, WalkEntry>, result: RestoreResult): void {
  const entry = current.get(p);
  if (entry?.kind === 'dir') return;
  clear(root, p, entry);
  fs.mkdirSync(path.join(root, p), { recursive: true });
  current.set(p, { kind: 'dir', path: p });
  if (!entry) result.created.push(p);
}

/** Whether the file on disk has the checkpoint's bytes and mode (by its stat when the cache knows it). */
function sameFile(
  root: string,
  cache: StatCache,
  entry: Extract<WalkEntry, { kind: 'file' }>,
  file: Manifest['files'][string],
) {
  if ((entry.stat.mode & 0o7777) !== file.mode || entry.stat.size !== file.size) return false;
  return (cache.hashOf(entry.path, entry.stat) ?? hashFile(path.join(root, entry.path))) === file.hash;
}

function hashFile(file: string): string {
  return blobRef(fs.readFileSync(file));
}

/** Whatever stands at `p` and is not what goes there: a folder where a file goes, a link where a folder goes. */
function clear(root: string, p: string, entry: WalkEntry | undefined): void {
  if (!entry) return;
  fs.rmSync(path.join(root, p), { recursive: true, force: true });
}

/** Written beside and renamed over: a crash mid-restore leaves the old file or the new one, never half. */
function writeFile(file: string, bytes: Buffer, mode: number): void {
  const tmp = `${file}.${randomBytes(6).toString('hex')}.restoring`;
  fs.writeFileSync(tmp, bytes, { mode });
  fs.chmodSync(tmp, mode);
  fs.renameSync(tmp, file);
}
