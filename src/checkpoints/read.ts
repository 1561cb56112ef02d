import type { TranscriptStore } from '../store/types';
import { type Manifest, parseManifest } from './manifest';

const KEPT = 8;
const recent = new Map<string, Manifest>();

/** The manifest of checkpoint `ref`, checked (see parseManifest); the last few are kept parsed in memory. */
export async function readManifest(store: TranscriptStore, ref: string): Promise<Manifest> {
  const known = recent.get(ref);
  if (known) return known;
  const manifest = parseManifest(await store.getBlob(ref), ref);
  rememberManifest(ref, manifest);
  return manifest;
}

/** Manifests are immutable (a blob's content is its address), so a parsed one stays true. */
export function rememberManifest(ref: string, manifest: Manifest): void {
  recent.delete(ref);
  recent.set(ref, manifest);
  if (recent.size > KEPT) recent.delete(recent.keys().next().value as string);
}
