/**
 * A checkpoint is the reference of its manifest, a blob in the transcript store: what every file of the
 * workspace held (each file's bytes are a blob of their own, shared by every checkpoint that has them), its
 * symbolic links, its folders, and what was left out and why. Pure: no I/O.
 */

import { BLOB_REF } from '../store/blob-ref';

/** Why a path is in the workspace but not in the checkpoint; a restore leaves it as it finds it. */
export type SkipReason = 'file-cap' | 'checkpoint-cap' | 'special' | 'unreadable';

export interface ManifestFile {
  /** The blob holding the file's bytes (`sha256:<hex>`). */
  hash: string;
  /** Permission bits (`mode & 0o7777`). */
  mode: number;
  size: number;
}

export interface Manifest {
  version: 1;
  /** Workspace-relative paths with `/` separators, sorted. */
  files: Record<string, ManifestFile>;
  /** Symbolic links as links: path → the target they name, never followed. */
  links: Record<string, string>;
  /** Every folder taken (an empty one too), so that a restore makes them and removes those made later. */
  dirs: string[];
  skipped: { path: string; reason: SkipReason; size?: number }[];
  /** The settings list of excluded patterns the checkpoint was taken with (`.gitignore` syntax). */
  exclude: string[];
  /** Sum of the files' sizes. */
  bytes: number;
}

/** A workspace-relative path a restore may write: no absolute path, no `..`, no empty or `.` segment. */
export function isSafeRelative(p: string): boolean {
  if (p === '' || p.startsWith('/') || p.includes('\\') || p.includes('\0')) return false;
  return p.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

/**
 * Parses a stored manifest; throws a clear error for anything that is not one (a reference to another blob, a
 * damaged store), before a restore could act on it.
 */
export function parseManifest(text: string, ref: string): Manifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${ref} is not a checkpoint: its blob is not JSON`);
  }
  const m = value as Partial<Manifest>;
  const problem = manifestProblem(m);
  if (problem) throw new Error(`${ref} is not a checkpoint: ${problem}`);
  return m as Manifest;
}

function manifestProblem(m: Partial<Manifest>): string | undefined {
  if (typeof m !== 'object' || m === null || m.version !== 1) return 'no manifest version 1';
  if (typeof m.files !== 'object' || typeof m.links !== 'object' || !Array.isArray(m.dirs)) return 'lists missing';
  if (!Array.isArray(m.skipped) || !Array.isArray(m.exclude)) return 'lists missing';
  for (const [p, f] of Object.entries(m.files ?? {})) {
    if (!isSafeRelative(p)) return `unsafe path ${JSON.stringify(p)}`;
    if (!BLOB_REF.test(f?.hash) || typeof f.mode !== 'number' || typeof f.size !== 'number') return `bad entry ${p}`;
  }
  for (const [p, target] of Object.entries(m.links ?? {})) {
    if (!isSafeRelative(p) || typeof target !== 'string') return `bad link ${JSON.stringify(p)}`;
  }
  const badDir = m.dirs.find((d) => typeof d !== 'string' || !isSafeRelative(d));
  return badDir === undefined ? undefined : `unsafe folder ${JSON.stringify(badDir)}`;
}

export interface ManifestChanges {
  added: string[];
  modified: string[];
  deleted: string[];
}

/**
 * What changed from `a` to `b`, files and links together, each list sorted. A changed mode, or a file that became
 * a link, is a modification.
 */
export function compareManifests(a: Manifest, b: Manifest): ManifestChanges {
  const entryOf = (m: Manifest, p: string) => {
    const f = m.files[p];
    if (f) return `f:${f.hash}:${f.mode}`;
    return p in m.links ? `l:${m.links[p]}` : undefined;
  };
  const before = new Set([...Object.keys(a.files), ...Object.keys(a.links)]);
  const after = new Set([...Object.keys(b.files), ...Object.keys(b.links)]);
  const changes: ManifestChanges = { added: [], modified: [], deleted: [] };
  for (const p of after) {
    if (!before.has(p)) changes.added.push(p);
    else if (entryOf(a, p) !== entryOf(b, p)) changes.modified.push(p);
  }
  for (const p of before) if (!after.has(p)) changes.deleted.push(p);
  for (const list of Object.values(changes)) (list as string[]).sort();
  return changes;
}
