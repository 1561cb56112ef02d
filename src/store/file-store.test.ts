import { createHash } from 'node:crypto';
import * as fsSync from 'node:fs';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Content } from '@google/genai';
import { FileTranscriptStore } from './file-store';
import { TranscriptGapError } from './types';

let root: string;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'da-store-'));
});

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });
const model = (text: string): Content => ({ role: 'model', parts: [{ text }] });

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath ?? e.path, e.name));
}

describe('FileTranscriptStore blobs', () => {
  it('addresses blobs by their sha256, and storing the same content twice writes one file', async () => {
    const store = new FileTranscriptStore(root);
    const ref = await store.putBlob('hello');
    expect(ref).toBe(`sha256:${createHash('sha256').update('hello').digest('hex')}`);
    expect(await new FileTranscriptStore(root).putBlob('hello')).toBe(ref);
    expect(await store.putBlob('other')).not.toBe(ref);
    expect(await filesUnder(path.join(root, 'blobs'))).toHaveLength(2);
  });

  it('reads a blob back from disk in a fresh instance', async () => {
    const content = 'x'.repeat(10_000) + '\u00e9\n';
    const ref = await new FileTranscriptStore(root).putBlob(content);
    const [file] = await filesUnder(path.join(root, 'blobs'));
    expect(await fs.readFile(file, 'utf8')).toBe(content);
    expect(await new FileTranscriptStore(root).getBlob(ref)).toBe(content);
  });

  it('refuses a reference that is not a sha256', async () => {
    await expect(new FileTranscriptStore(root).getBlob('sha256:../../etc/passwd')).rejects.toThrow(/not a blob reference/);
  });
});

describe('FileTranscriptStore transcripts', () => {
  it('round-trips messages in index order', async () => {
    const store = new FileTranscriptStore(root);
    await store.writeMessage('t1', 0, user('hi'));
    await store.writeMessage('t1', 1, model('hello'));
    expect(await store.readMessages('t1', 2)).toEqual([user('hi'), model('hello')]);
    expect(await store.readMessages('t1', 1)).toEqual([user('hi')]);
    expect(await store.readMessages('t1', 0)).toEqual([]);
  });

  it('keeps transcripts apart', async () => {
    const store = new FileTranscriptStore(root);
    await store.writeMessage('a', 0, user('for a'));
    await store.writeMessage('b', 0, user('for b'));
    expect(await store.readMessages('a', 1)).toEqual([user('for a')]);
    expect(await store.readMessages('b', 1)).toEqual([user('for b')]);
  });

  it('lets a rewrite with a higher or equal attempt win', async () => {
    const store = new FileTranscriptStore(root);
    await store.writeMessage('t', 0, model('attempt 1'), 1);
    await store.writeMessage('t', 0, model('attempt 2'), 2);
    expect(await store.readMessages('t', 1)).toEqual([model('attempt 2')]);
    await store.writeMessage('t', 0, model('attempt 2 again'), 2);
    expect(await store.readMessages('t', 1)).toEqual([model('attempt 2 again')]);
  });

  it('ignores a rewrite from a lower (stale) attempt', async () => {
    const store = new FileTranscriptStore(root);
    await store.writeMessage('t', 0, model('attempt 3'), 3);
    await store.writeMessage('t', 0, model('stale attempt 2'), 2);
    expect(await store.readMessages('t', 1)).toEqual([model('attempt 3')]);
    expect(await new FileTranscriptStore(root).readMessages('t', 1)).toEqual([model('attempt 3')]);
  });

  it('throws TranscriptGapError for a missing index', async () => {
    const store = new FileTranscriptStore(root);
    await store.writeMessage('t', 0, user('zero'));
    await store.writeMessage('t', 2, user('two'));
    const read = store.readMessages('t', 3);
    await expect(read).rejects.toBeInstanceOf(TranscriptGapError);
    await expect(store.readMessages('t', 3)).rejects.toThrow(/has no message 1/);
    await expect(store.readMessages('never-written', 1)).rejects.toBeInstanceOf(TranscriptGapError);
  });

  it('shares writes between two instances on the same directory', async () => {
    const a = new FileTranscriptStore(root);
    const b = new FileTranscriptStore(root);
    await a.writeMessage('shared', 0, user('from a'));
    await b.writeMessage('shared', 1, model('from b'));
    expect(await a.readMessages('shared', 2)).toEqual([user('from a'), model('from b')]);
    expect(await b.readMessages('shared', 2)).toEqual([user('from a'), model('from b')]);
    await b.writeMessage('shared', 1, model('b retried'), 2);
    expect(await a.readMessages('shared', 2)).toEqual([user('from a'), model('b retried')]);
  });
});

describe('FileTranscriptStore under concurrency and crashes', () => {
  it('stores the same content from many concurrent writers', async () => {
    const dir = fsSync.mkdtempSync(path.join(os.tmpdir(), 'da-store-race-'));
    const store = new FileTranscriptStore(dir);
    const refs = await Promise.all(Array.from({ length: 8 }, () => new FileTranscriptStore(dir).putBlob('same content')));
    expect(new Set(refs).size).toBe(1);
    expect(await store.getBlob(refs[0])).toBe('same content');
  });

  it('skips an index line cut short by a crash', async () => {
    const dir = fsSync.mkdtempSync(path.join(os.tmpdir(), 'da-store-cut-'));
    const store = new FileTranscriptStore(dir);
    await store.writeMessage('t', 0, { role: 'user', parts: [{ text: 'hi' }] });
    const indexFile = (fsSync.readdirSync(path.join(dir, 'transcripts'), { recursive: true }) as string[]).find((f) => f.endsWith('.jsonl'))!;
    fsSync.appendFileSync(path.join(dir, 'transcripts', indexFile), '{"i":1,"h":"sha');
    expect(await new FileTranscriptStore(dir).readMessages('t', 1)).toEqual([{ role: 'user', parts: [{ text: 'hi' }] }]);
  });
});
