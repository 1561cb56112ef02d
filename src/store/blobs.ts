import { INLINE_STRING_LIMIT, MARKER_PREVIEW_CHARS, mapStrings } from '../core/blob-marker';
import type { BlobMarker } from '../core/types';
import type { TranscriptStore } from './types';

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
