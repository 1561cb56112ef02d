import { INLINE_STRING_LIMIT, MARKER_PREVIEW_CHARS, mapStrings } from '../core/blob-marker';
import type { BlobMarker } from '../core/types';
import { BlobMissingError, type TranscriptStore } from './types';

/** Swaps long strings for markers so that the value can enter workflow history (invariant 4). */
export async function externalizeLargeStrings<T>(
  value: T,
  store: TranscriptStore,
  limit = INLINE_STRING_LIMIT,
): Promise<T> {
  return (await mapStrings(value, async (s) => {
    if (typeof s !== 'string' || s.length <= limit) return s;
    const marker: BlobMarker = {
      $blob: await store.putBlob(s),
      size: s.length,
      preview: s.slice(0, MARKER_PREVIEW_CHARS),
    };
    return marker;
  })) as T;
}

/** The inverse of `externalizeLargeStrings`: every marker becomes its full string again. */
export async function resolveBlobMarkers<T>(value: T, store: TranscriptStore): Promise<T> {
  return (await mapStrings(value, async (s) => (typeof s === 'string' ? s : store.getBlob(s.$blob)))) as T;
}

/** A blob, or undefined when the store does not hold it; any other store failure is thrown. */
export async function getBlobIfStored(store: TranscriptStore, ref: string): Promise<string | undefined> {
  try {
    return await store.getBlob(ref);
  } catch (err) {
    if (err instanceof BlobMissingError) return undefined;
    throw err;
  }
}
