import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isBlobMarker } from '../core/blob-marker';
import type { BlobMarker } from '../core/types';
import { externalizeLargeStrings, resolveBlobMarkers } from './blobs';
import { FileTranscriptStore } from './file-store';

let root: string;
let store: FileTranscriptStore;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'da-blobs-'));
  store = new FileTranscriptStore(root);
});

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const long = (n: number, seed = 'a') =>
  Array.from({ length: n }, (_, i) => String.fromCharCode(seed.charCodeAt(0) + (i % 26))).join('');

describe('externalizeLargeStrings', () => {
  it('leaves strings up to 2048 characters inline', async () => {
    const value = { short: 'hi', edge: long(2048), n: 3, flag: true, none: null };
    expect(await externalizeLargeStrings(value, store)).toEqual(value);
  });

  it('replaces a longer string with a marker whose preview is its first 200 characters', async () => {
    const content = long(2049);
    const out = await externalizeLargeStrings({ file_path: 'a.txt', content }, store);
    expect(out.file_path).toBe('a.txt');
    const marker = out.content as unknown as BlobMarker;
    expect(isBlobMarker(marker)).toBe(true);
    expect(marker.size).toBe(2049);
    expect(marker.preview).toBe(content.slice(0, 200));
    expect(await new FileTranscriptStore(root).getBlob(marker.$blob)).toBe(content);
  });

  it('finds long strings nested in arrays and objects', async () => {
    const big = long(5000, 'A');
    const out = (await externalizeLargeStrings(
      { calls: [{ args: { content: big, keep: 'x' } }, big] },
      store,
    )) as unknown as {
      calls: [{ args: { content: unknown; keep: string } }, unknown];
    };
    expect(isBlobMarker(out.calls[0].args.content)).toBe(true);
    expect(out.calls[0].args.keep).toBe('x');
    expect(isBlobMarker(out.calls[1])).toBe(true);
    expect(JSON.stringify(out).length).toBeLessThan(1000);
  });

  it('honours a custom limit', async () => {
    expect(isBlobMarker(await externalizeLargeStrings('0123456789', store, 5))).toBe(true);
  });
});

describe('resolveBlobMarkers', () => {
  it('restores the exact value', async () => {
    const value = { a: long(3000), b: [long(10_000, 'K'), 'short', 7, { c: long(2500) + '\u00fc\n' }], d: null };
    const external = await externalizeLargeStrings(value, store);
    expect(external).not.toEqual(value);
    expect(await resolveBlobMarkers(external, new FileTranscriptStore(root))).toEqual(value);
  });
});
