import type { BlobMarker } from './types';

/** Strings longer than this leave workflow history and travel as a `BlobMarker`. */
export const INLINE_STRING_LIMIT = 2048;
export const MARKER_PREVIEW_CHARS = 200;

export function isBlobMarker(value: unknown): value is BlobMarker {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.$blob === 'string' && typeof v.size === 'number' && typeof v.preview === 'string';
}

/** Maps every string (and marker) inside a JSON value, depth first; everything else is copied. */
export async function mapStrings(value: unknown, fn: (s: string | BlobMarker) => Promise<unknown>): Promise<unknown> {
  if (typeof value === 'string' || isBlobMarker(value)) return fn(value);
  if (Array.isArray(value)) return Promise.all(value.map((v) => mapStrings(v, fn)));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = await mapStrings(v, fn);
    return out;
  }
  return value;
}

/** Replaces markers by their preview: how the workflow shows and validates large arguments. */
export function previewMarkers(value: unknown): unknown {
  if (isBlobMarker(value)) return value.preview;
  if (Array.isArray(value)) return value.map(previewMarkers);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, previewMarkers(v)]));
  }
  return value;
}

/** Whether a JSON value holds a marker anywhere: its checks must then see the stored text. */
export function hasBlobMarkers(value: unknown): boolean {
  if (isBlobMarker(value)) return true;
  if (Array.isArray(value)) return value.some(hasBlobMarkers);
  if (typeof value === 'object' && value !== null) return Object.values(value).some(hasBlobMarkers);
  return false;
}

/**
 * Where a model's arguments hold an object with a `$blob` key (`edits.0.text`, or `` for the
 * arguments themselves), or undefined. Only our code makes markers; one in model output is forged.
 */
export function findMarkerShaped(value: unknown, where = ''): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if (!Array.isArray(value) && Object.prototype.hasOwnProperty.call(value, '$blob')) return where;
  for (const [key, item] of Object.entries(value)) {
    const found = findMarkerShaped(item, where ? `${where}.${key}` : key);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Replaces every object with a `$blob` key by its JSON text, so that nothing forged is ever resolved. */
export function defuseMarkerShaped(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(defuseMarkerShaped);
  if (Object.prototype.hasOwnProperty.call(value, '$blob')) return JSON.stringify(value);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, defuseMarkerShaped(v)]));
}
