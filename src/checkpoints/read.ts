import type { TranscriptStore } from '../store/types';
import { type Manifest, parseManifest } from './manifest';
import { loadTrees, type StoredRoot } from './tree';

const KEPT = 8;
const recent = new Map<string, Manifest>();

/**
 * The manifest of checkpoint `ref`, checked (see parseManifest), as one flat list whichever way it was stored: a
 * root record with a tree per folder, or (checkpoints taken before manifests were split) one flat manifest. The
 * last few are kept parsed in memory.
 */
export async function readManifest(store: TranscriptStore, ref: string): Promise<Manifest> {
  const known = recent.get(ref);
  if (known) return known;
  const text = await store.getBlob(ref);
  const root = storedRoot(text);
  const manifest = root ? await loadTrees(store, root, ref) : parseManifest(text, ref);
  rememberManifest(ref, manifest);
  return manifest;
}

function storedRoot(text: string): StoredRoot | undefined {
  if (!text.startsWith('{"version":2,')) return undefined;
  try {
    const root = JSON.parse(text) as StoredRoot;
    const lists = Array.isArray(root.skipped) && Array.isArray(root.exclude) && typeof root.bytes === 'number';
    return typeof root.tree === 'string' && lists ? root : undefined;
  } catch {
    return undefined;
  }
}

/** Manifests are immutable (a blob's content is its address), so a parsed one stays true. */
export function rememberManifest(ref: string, manifest: Manifest): void {
  recent.delete(ref);
  recent.set(ref, manifest);
  if (recent.size > KEPT) recent.delete(recent.keys().next().value as string);
}
