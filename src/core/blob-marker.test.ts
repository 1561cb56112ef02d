import {
  defuseMarkerShaped,
  findMarkerShaped,
  hasBlobMarkers,
  isBlobMarker,
  mapStrings,
  previewMarkers,
} from './blob-marker';
import type { BlobMarker } from './types';

const marker: BlobMarker = { $blob: 'sha256:abc', size: 5000, preview: 'start of it' };

describe('isBlobMarker', () => {
  it('recognises a marker', () => {
    expect(isBlobMarker(marker)).toBe(true);
    expect(isBlobMarker({ ...marker, extra: 1 })).toBe(true);
  });

  it.each([
    ['null', null],
    ['a string', 'sha256:abc'],
    ['an array', [marker]],
    ['a marker without size', { $blob: 'sha256:abc', preview: 'x' }],
    ['a size that is a string', { $blob: 'sha256:abc', size: '5000', preview: 'x' }],
    ['no preview', { $blob: 'sha256:abc', size: 1 }],
    ['a non-string $blob', { $blob: 1, size: 1, preview: 'x' }],
  ])('rejects %s', (_label, value) => {
    expect(isBlobMarker(value)).toBe(false);
  });
});

describe('mapStrings', () => {
  it('maps every string and marker, depth first, copying everything else', async () => {
    const input = { a: 'x', n: 1, b: [true, 'y', { c: marker, d: null }] };
    const seen: unknown[] = [];
    const out = await mapStrings(input, async (s) => {
      seen.push(s);
      return typeof s === 'string' ? s.toUpperCase() : `<${s.$blob}>`;
    });
    expect(out).toEqual({ a: 'X', n: 1, b: [true, 'Y', { c: '<sha256:abc>', d: null }] });
    expect(seen).toEqual(['x', 'y', marker]);
    expect(input).toEqual({ a: 'x', n: 1, b: [true, 'y', { c: marker, d: null }] });
  });

  it('maps a top-level string', async () => {
    expect(await mapStrings('hi', async (s) => `${s as string}!`)).toBe('hi!');
  });
});

describe('previewMarkers', () => {
  it('replaces markers, nested or not, by their previews', () => {
    expect(previewMarkers(marker)).toBe('start of it');
    expect(previewMarkers({ file_path: 'a.txt', content: marker, list: [marker, 'plain', 3] })).toEqual({
      file_path: 'a.txt',
      content: 'start of it',
      list: ['start of it', 'plain', 3],
    });
  });

  it('leaves values without markers equal', () => {
    const value = { a: [1, 'b', { c: null }], d: false };
    expect(previewMarkers(value)).toEqual(value);
  });
});

describe('hasBlobMarkers', () => {
  it('finds a marker at any depth, and nothing in plain JSON', () => {
    expect(hasBlobMarkers({ a: [1, { b: marker }] })).toBe(true);
    expect(hasBlobMarkers(marker)).toBe(true);
    expect(hasBlobMarkers({ a: 'x', b: [1, null, { c: 'sha256:abc' }] })).toBe(false);
  });
});

describe('findMarkerShaped', () => {
  it.each([
    ['a whole marker', { command: marker }, 'command'],
    ['any object with a $blob key', { edits: [{ text: { $blob: 1 } }] }, 'edits.0.text'],
    ['the arguments themselves', { $blob: 'x' }, ''],
  ])('names where %s is', (_label, value, where) => {
    expect(findMarkerShaped(value)).toBe(where);
  });

  it('finds nothing in ordinary arguments, whatever their strings say', () => {
    expect(findMarkerShaped({ command: '{"$blob":"sha256:abc"}', list: ['$blob'], n: null })).toBeUndefined();
  });
});

describe('defuseMarkerShaped', () => {
  it('turns every $blob object into its JSON text and keeps the rest', () => {
    const out = defuseMarkerShaped({ a: marker, b: [{ $blob: 1 }, 'x'], c: { d: 2 } });
    expect(out).toEqual({ a: JSON.stringify(marker), b: [JSON.stringify({ $blob: 1 }), 'x'], c: { d: 2 } });
    expect(hasBlobMarkers(out)).toBe(false);
  });
});
