import { unifiedDiff } from '../core/diff';
import type { TranscriptStore } from '../store/types';
import { looksBinary } from '../tools/tool-helpers';
import { compareManifests, type Manifest } from './manifest';
import { readManifest } from './read';

export interface CheckpointDiff {
  added: string[];
  modified: string[];
  deleted: string[];
  /** With `text: true`: a unified diff per changed text file (binary files and links are named, not shown). */
  patches?: { path: string; diff?: string; binary?: true }[];
}

/** What changed from checkpoint `a` to checkpoint `b`; `a` undefined means from an empty workspace. */
export async function diffCheckpoints(
  store: TranscriptStore,
  a: string | undefined,
  b: string,
  options: { text?: boolean } = {},
): Promise<CheckpointDiff> {
  const before = a ? await readManifest(store, a) : emptyManifest();
  const after = await readManifest(store, b);
  const changes = compareManifests(before, after);
  if (!options.text) return changes;
  const patches: NonNullable<CheckpointDiff['patches']> = [];
  const paths = [...changes.added, ...changes.modified, ...changes.deleted].sort();
  for (const p of paths) patches.push(await patchOf(store, before, after, p));
  return { ...changes, patches };
}

async function patchOf(store: TranscriptStore, before: Manifest, after: Manifest, p: string) {
  const [oldBytes, newBytes] = await Promise.all([sideOf(store, before, p), sideOf(store, after, p)]);
  if ((oldBytes && looksBinary(oldBytes)) || (newBytes && looksBinary(newBytes))) {
    return { path: p, binary: true as const };
  }
  const diff = unifiedDiff(oldBytes?.toString('utf8') ?? '', newBytes?.toString('utf8') ?? '', {
    oldLabel: oldBytes ? `a/${p}` : '/dev/null',
    newLabel: newBytes ? `b/${p}` : '/dev/null',
  });
  return { path: p, diff };
}

/** A file's bytes, a link as the text of its target, or undefined when the side has nothing at `p`. */
async function sideOf(store: TranscriptStore, m: Manifest, p: string): Promise<Buffer | undefined> {
  const file = m.files[p];
  if (file) return store.getBytes(file.hash);
  return p in m.links ? Buffer.from(`-> ${m.links[p]}\n`, 'utf8') : undefined;
}

function emptyManifest(): Manifest {
  return { version: 1, files: {}, links: {}, dirs: [], skipped: [], exclude: [], bytes: 0 };
}
