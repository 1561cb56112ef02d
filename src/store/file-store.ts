import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Content } from '@google/genai';
import { blobRef, BLOB_REF } from './blob-ref';
import { MessageCache } from './message-cache';
import { BlobMissingError, TranscriptGapError, type TranscriptStore } from './types';
import { PRIVATE_DIR, PRIVATE_FILE } from '../private-files';

const BLOB_CACHE_LIMIT = 2000;

interface IndexEntry {
  i: number;
  h: string;
  a: number;
}

/**
 * File-system transcript store under `<root>/blobs` and `<root>/transcripts`. Index files are
 * append-only JSON Lines (`O_APPEND` writes of one short line are atomic), so concurrent workers on
 * one machine can share a store. Blobs are cached in memory: they never change once written.
 */
export class FileTranscriptStore implements TranscriptStore {
  private readonly blobCache = new Map<string, string>();
  private readonly madeFolders = new Set<string>();
  private readonly messages: MessageCache;

  /** `messageCacheBytes`: budget of parsed messages kept in memory (see MessageCache). */
  constructor(
    private readonly root: string,
    options: { messageCacheBytes?: number } = {},
  ) {
    this.messages = new MessageCache(options.messageCacheBytes);
  }

  async putBlob(content: string): Promise<string> {
    const ref = await this.putBytes(Buffer.from(content, 'utf8'));
    this.remember(ref, content);
    return ref;
  }

  /** Bytes are not kept in the text cache: workspace files are many and mostly written once. */
  async putBytes(content: Uint8Array): Promise<string> {
    const ref = blobRef(content);
    if (!this.blobCache.has(ref)) await this.writeBlob(ref, content);
    return ref;
  }

  async getBytes(ref: string): Promise<Buffer> {
    const cached = this.blobCache.get(ref);
    if (cached !== undefined) return Buffer.from(cached, 'utf8');
    return fs.readFile(this.blobPath(ref)).catch((err: NodeJS.ErrnoException) => {
      throw err.code === 'ENOENT' ? new BlobMissingError(ref) : err;
    });
  }

  private async writeBlob(ref: string, content: string | Uint8Array): Promise<void> {
    const file = this.blobPath(ref);
    if (await exists(file)) return;
    // Each blob folder is made once per instance (a checkpoint stores thousands of blobs); one removed since is
    // made again.
    const folder = path.dirname(file);
    const makeFolder = () => fs.mkdir(folder, { recursive: true, mode: PRIVATE_DIR });
    if (!this.madeFolders.has(folder)) await makeFolder();
    this.madeFolders.add(folder);
    // A unique temporary name per write: parallel tools often store identical results at once.
    const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    await fs.writeFile(tmp, content, { mode: PRIVATE_FILE }).catch(async (err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
      await makeFolder();
      await fs.writeFile(tmp, content, { mode: PRIVATE_FILE });
    });
    await fs.rename(tmp, file);
  }

  async getBlob(ref: string): Promise<string> {
    const cached = this.blobCache.get(ref);
    if (cached !== undefined) return cached;
    const content = (await this.getBytes(ref)).toString('utf8');
    this.remember(ref, content);
    return content;
  }

  async writeMessage(transcriptId: string, index: number, message: Content, attempt = 1): Promise<void> {
    const h = await this.putBlob(JSON.stringify(message));
    const file = this.indexPath(transcriptId);
    await fs.mkdir(path.dirname(file), { recursive: true, mode: PRIVATE_DIR });
    const current = (await this.readIndex(file)).get(index);
    if (current && (current.h === h || current.a > attempt)) return;
    await fs.appendFile(file, `${JSON.stringify({ i: index, h, a: attempt })}\n`, { mode: PRIVATE_FILE });
  }

  async readMessages(transcriptId: string, length: number): Promise<Content[]> {
    if (length === 0) return [];
    const entries = await this.readIndex(this.indexPath(transcriptId));
    const messages: Content[] = [];
    for (let i = 0; i < length; i++) {
      const entry = entries.get(i);
      if (!entry) throw new TranscriptGapError(transcriptId, i);
      messages.push(this.messages.get(entry.h) ?? this.messages.parse(entry.h, await this.readBlob(entry.h)));
    }
    return messages;
  }

  /** A blob's text without caching it: the parsed message is what is kept. */
  private async readBlob(ref: string): Promise<string> {
    return this.blobCache.get(ref) ?? fs.readFile(this.blobPath(ref), 'utf8');
  }

  /** Last accepted write per index: a line replaces an earlier one unless its attempt is lower. */
  private async readIndex(file: string): Promise<Map<number, IndexEntry>> {
    const text = await fs.readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return '';
      throw err;
    });
    const entries = new Map<number, IndexEntry>();
    for (const line of text.split('\n')) {
      const entry = parseEntry(line);
      if (!entry) continue;
      const current = entries.get(entry.i);
      if (!current || entry.a >= current.a) entries.set(entry.i, entry);
    }
    return entries;
  }

  private blobPath(ref: string): string {
    if (!BLOB_REF.test(ref)) throw new Error(`not a blob reference: ${ref}`);
    const hex = ref.slice('sha256:'.length);
    return path.join(this.root, 'blobs', hex.slice(0, 2), hex.slice(2));
  }

  private indexPath(transcriptId: string): string {
    const digest = createHash('sha256').update(transcriptId).digest('hex').slice(0, 40);
    return path.join(this.root, 'transcripts', digest.slice(0, 2), `${digest}.jsonl`);
  }

  private remember(ref: string, content: string): void {
    if (this.blobCache.size >= BLOB_CACHE_LIMIT) {
      const oldest = this.blobCache.keys().next().value;
      if (oldest !== undefined) this.blobCache.delete(oldest);
    }
    this.blobCache.set(ref, content);
  }
}

/** A line cut short by a crash mid-append is skipped: the write it belonged to is retried anyway. */
function parseEntry(line: string): IndexEntry | undefined {
  if (!line) return undefined;
  try {
    const entry = JSON.parse(line) as IndexEntry;
    return typeof entry.i === 'number' && typeof entry.h === 'string' ? entry : undefined;
  } catch {
    return undefined;
  }
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}
