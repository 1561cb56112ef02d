import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileTranscriptStore } from '../store/file-store';
import { inlineText, TEXT_INLINE_LIMIT } from './long-text';

let root: string;
beforeEach(async () => (root = await fs.mkdtemp(path.join(os.tmpdir(), 'da-long-text-'))));
afterEach(() => fs.rm(root, { recursive: true, force: true }));

describe('inlineText', () => {
  it('keeps a short text inline, with no reference', async () => {
    expect(await inlineText('short answer', new FileTranscriptStore(root))).toEqual({ text: 'short answer' });
  });

  it('cuts a long text with a note and stores the whole of it by reference', async () => {
    const store = new FileTranscriptStore(root);
    const whole = 'x'.repeat(3 * 1024 * 1024);
    const out = await inlineText(whole, store);
    expect(out.text.startsWith('x'.repeat(TEXT_INLINE_LIMIT))).toBe(true);
    expect(out.text.length).toBeLessThan(TEXT_INLINE_LIMIT + 200);
    expect(out.text).toMatch(/answer cut here: 3145728 characters/);
    expect(await store.getBlob(out.textRef!)).toBe(whole);
  });
});
