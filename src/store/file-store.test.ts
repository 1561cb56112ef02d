import { createHash } from 'node:crypto';
import * as fsSync from 'node:fs';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileTranscriptStore } from './file-store';

let root: string;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'da-store-'));
});

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

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
    await expect(new FileTranscriptStore(root).getBlob('sha256:../../etc/passwd')).rejects.toThrow(
      /not a blob reference/,
    );
  });
});

// The behaviour every store shares (round trips, attempts, gaps, several instances, concurrent
// writers) is tested once for all stores in store-contract.test.ts; what follows is file-specific.

describe('FileTranscriptStore after a crash', () => {
  it('skips an index line cut short by a crash', async () => {
    const dir = root;
    const store = new FileTranscriptStore(dir);
    await store.writeMessage('t', 0, { role: 'user', parts: [{ text: 'hi' }] });
    const indexFile = (fsSync.readdirSync(path.join(dir, 'transcripts'), { recursive: true }) as string[]).find((f) =>
      f.endsWith('.jsonl'),
    )!;
    fsSync.appendFileSync(path.join(dir, 'transcripts', indexFile), '{"i":1,"h":"sha');
    expect(await new FileTranscriptStore(dir).readMessages('t', 1)).toEqual([
      { role: 'user', parts: [{ text: 'hi' }] },
    ]);
  });
});

describe('FileTranscriptStore message cache', () => {
  it('hands out the same parsed message on every read, and a rewritten index its new message', async () => {
    const store = new FileTranscriptStore(root);
    await store.writeMessage('t', 0, { role: 'user', parts: [{ text: 'first' }] });
    const [once] = await store.readMessages('t', 1);
    const [twice] = await store.readMessages('t', 1);
    expect(twice).toBe(once);
    await store.writeMessage('t', 0, { role: 'user', parts: [{ text: 'retried' }] }, 2);
    expect((await store.readMessages('t', 1))[0].parts?.[0].text).toBe('retried');
  });
});
