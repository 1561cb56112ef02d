import { createHash } from 'node:crypto';
import type { Content } from '@google/genai';
import { BlobMissingError, TranscriptGapError, type TranscriptStore } from './types';

/**
 * The behaviour every `TranscriptStore` shares (the contract in ./types.ts), as a jest suite that
 * each implementation's test file runs against its own storage. Test code: only test files call it.
 */
export interface StoreUnderTest {
  store: TranscriptStore;
  /** Another instance on the same storage, as a second worker process (or machine) would open it. */
  another(): Promise<TranscriptStore>;
  /** Closes every instance made and removes the storage. */
  cleanup(): Promise<void>;
}

type Ctx = () => StoreUnderTest;

const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });
const model = (text: string): Content => ({ role: 'model', parts: [{ text }] });
const sha256 = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

export function describeTranscriptStore(name: string, makeStore: () => Promise<StoreUnderTest>): void {
  describe(`${name} (TranscriptStore contract)`, () => {
    let current: StoreUnderTest | undefined;
    beforeEach(async () => {
      current = await makeStore();
    });
    afterEach(async () => {
      await current?.cleanup();
      current = undefined;
    });
    const ctx: Ctx = () => {
      if (!current) throw new Error('no store: makeStore failed');
      return current;
    };
    describeBlobs(ctx);
    describeTranscripts(ctx);
    describeAttempts(ctx);
    describeSharing(ctx);
  });
}

function describeBlobs(ctx: Ctx): void {
  describe('blobs', () => {
    it('addresses blobs by their sha256; storing the same content twice gives the same reference', async () => {
      const ref = await ctx().store.putBlob('hello');
      expect(ref).toBe(sha256('hello'));
      expect(await ctx().store.putBlob('hello')).toBe(ref);
      expect(await (await ctx().another()).putBlob('hello')).toBe(ref);
      expect(await ctx().store.putBlob('other')).not.toBe(ref);
    });

    it('reads a blob back in a fresh instance, whatever its characters', async () => {
      const content = 'x'.repeat(10_000) + '\u00e9\n\u0000 nul, \u{1F600} emoji, \r\n';
      const ref = await ctx().store.putBlob(content);
      expect(await (await ctx().another()).getBlob(ref)).toBe(content);
      expect(await (await ctx().another()).getBlob(await ctx().store.putBlob(''))).toBe('');
    });

    it('stores bytes as they are, at the address of their sha256, beside text', async () => {
      const bytes = Buffer.from([0, 255, 254, 0x80, 10, 13, 0xc3, 0x28, 0]);
      const ref = await ctx().store.putBytes(bytes);
      expect(ref).toBe(`sha256:${createHash('sha256').update(bytes).digest('hex')}`);
      expect(await ctx().store.putBytes(new Uint8Array(bytes))).toBe(ref);
      expect(Buffer.compare(await (await ctx().another()).getBytes(ref), bytes)).toBe(0);
      // Text and its UTF-8 bytes are one blob, whichever way it was stored or is read.
      const text = 'caf\u00e9 \u{1F600}\n';
      expect(await ctx().store.putBytes(Buffer.from(text, 'utf8'))).toBe(await ctx().store.putBlob(text));
      expect((await (await ctx().another()).getBytes(await ctx().store.putBlob('plain'))).toString('utf8')).toBe(
        'plain',
      );
      expect((await ctx().store.getBytes(await ctx().store.putBytes(new Uint8Array(0)))).length).toBe(0);
      await expect(ctx().store.getBytes(sha256('never stored as bytes'))).rejects.toThrow(BlobMissingError);
      await expect(ctx().store.getBytes('sha256:../x')).rejects.toThrow(/not a blob reference/);
    });

    it('refuses a reference that is not a sha256, and one it never stored', async () => {
      await expect(ctx().store.getBlob('sha256:../../etc/passwd')).rejects.toThrow(/not a blob reference/);
      // A missing blob is a typed error whose text names the reference alone: no store path or URL.
      const missing = sha256('never stored');
      await expect(ctx().store.getBlob(missing)).rejects.toThrow(BlobMissingError);
      await expect(ctx().store.getBlob(missing)).rejects.toThrow(
        new RegExp(`^the transcript store holds no blob ${missing}$`),
      );
    });
  });
}

function describeTranscripts(ctx: Ctx): void {
  describe('transcripts', () => {
    it('round-trips messages in index order', async () => {
      const { store } = ctx();
      await store.writeMessage('t1', 0, user('hi'));
      await store.writeMessage('t1', 1, model('hello'));
      expect(await store.readMessages('t1', 2)).toEqual([user('hi'), model('hello')]);
      expect(await store.readMessages('t1', 1)).toEqual([user('hi')]);
      expect(await store.readMessages('t1', 0)).toEqual([]);
    });

    it('keeps transcripts apart', async () => {
      const { store } = ctx();
      await store.writeMessage('a', 0, user('for a'));
      await store.writeMessage('b', 0, user('for b'));
      expect(await store.readMessages('a', 1)).toEqual([user('for a')]);
      expect(await store.readMessages('b', 1)).toEqual([user('for b')]);
    });

    it('throws TranscriptGapError for a missing index', async () => {
      const { store } = ctx();
      await store.writeMessage('t', 0, user('zero'));
      await store.writeMessage('t', 2, user('two'));
      await expect(store.readMessages('t', 3)).rejects.toBeInstanceOf(TranscriptGapError);
      await expect(store.readMessages('t', 3)).rejects.toThrow(/has no message 1/);
      await expect(store.readMessages('t', 4)).rejects.toThrow(/has no message 1/);
      await expect(store.readMessages('never-written', 1)).rejects.toBeInstanceOf(TranscriptGapError);
      await store.writeMessage('t', 1, user('one'));
      expect(await store.readMessages('t', 3)).toEqual([user('zero'), user('one'), user('two')]);
      await expect(store.readMessages('t', 4)).rejects.toThrow(/has no message 3/);
    });
  });
}

function describeAttempts(ctx: Ctx): void {
  describe('attempts', () => {
    it('lets a rewrite with a higher or equal attempt win', async () => {
      const { store } = ctx();
      await store.writeMessage('t', 0, model('attempt 1'), 1);
      await store.writeMessage('t', 0, model('attempt 2'), 2);
      expect(await store.readMessages('t', 1)).toEqual([model('attempt 2')]);
      await store.writeMessage('t', 0, model('attempt 2 again'), 2);
      expect(await store.readMessages('t', 1)).toEqual([model('attempt 2 again')]);
    });

    it('ignores a rewrite from a lower (stale) attempt', async () => {
      const { store } = ctx();
      await store.writeMessage('t', 0, model('attempt 3'), 3);
      await store.writeMessage('t', 0, model('stale attempt 2'), 2);
      await store.writeMessage('t', 0, model('stale default attempt'));
      expect(await store.readMessages('t', 1)).toEqual([model('attempt 3')]);
      expect(await (await ctx().another()).readMessages('t', 1)).toEqual([model('attempt 3')]);
    });

    it('keeps the highest attempt when attempts race', async () => {
      const writers = await Promise.all([5, 2, 4, 1, 3].map(async (a) => ({ a, store: await ctx().another() })));
      await Promise.all(writers.map(({ a, store }) => store.writeMessage('race', 0, model(`attempt ${a}`), a)));
      expect(await ctx().store.readMessages('race', 1)).toEqual([model('attempt 5')]);
    });
  });
}

function describeSharing(ctx: Ctx): void {
  describe('between instances', () => {
    it('shares writes between two instances on the same storage', async () => {
      const a = ctx().store;
      const b = await ctx().another();
      await a.writeMessage('shared', 0, user('from a'));
      await b.writeMessage('shared', 1, model('from b'));
      expect(await a.readMessages('shared', 2)).toEqual([user('from a'), model('from b')]);
      expect(await b.readMessages('shared', 2)).toEqual([user('from a'), model('from b')]);
      await b.writeMessage('shared', 1, model('b retried'), 2);
      expect(await a.readMessages('shared', 2)).toEqual([user('from a'), model('b retried')]);
    });

    it('stores the same content from many concurrent writers', async () => {
      const stores = await Promise.all(Array.from({ length: 8 }, () => ctx().another()));
      const refs = await Promise.all(stores.map((store) => store.putBlob('same content')));
      expect(new Set(refs).size).toBe(1);
      expect(await (await ctx().another()).getBlob(refs[0])).toBe('same content');
    });
  });
}
