import type { Content } from '@google/genai';
import { Pool } from 'pg';
import { blobRef, BLOB_REF } from './blob-ref';
import { MessageCache } from './message-cache';
import { migrateLocked } from './postgres-migrate';
import { BlobMissingError, TranscriptGapError, type TranscriptStore } from './types';

const BLOB_CACHE_LIMIT = 2000;

/**
 * Blob content is `bytea`, not `text`: PostgreSQL text cannot hold U+0000, which tool outputs (a
 * binary file read as text) can contain, and the file store keeps it.
 */
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS blobs (
    ref TEXT PRIMARY KEY,
    content BYTEA NOT NULL
  );
  CREATE TABLE IF NOT EXISTS transcript_messages (
    transcript_id TEXT NOT NULL,
    idx INTEGER NOT NULL,
    ref TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    PRIMARY KEY (transcript_id, idx)
  );`;

/** A write replaces the stored one only when its attempt is not lower (a stale retry loses). */
const UPSERT_MESSAGE = `
  INSERT INTO transcript_messages (transcript_id, idx, ref, attempt) VALUES ($1, $2, $3, $4)
  ON CONFLICT (transcript_id, idx) DO UPDATE SET ref = excluded.ref, attempt = excluded.attempt
  WHERE excluded.attempt >= transcript_messages.attempt`;

export interface PostgresStoreOptions {
  /** A pool the caller owns (and ends); otherwise the store makes one from `connectionString`. */
  pool?: Pool;
  /** `postgres://user:password@host:port/database?sslmode=...`, as `pg` parses it. */
  connectionString?: string;
  /** Connections of a pool the store makes itself; `pg`'s default is 10. */
  maxConnections?: number;
}

/**
 * Transcript store in PostgreSQL, shared by workers on any number of machines. Same contract as
 * the file store (src/store/types.ts): content-addressed immutable blobs, and transcripts as
 * message references written by index. Call `migrate()` once before use (`connect` does).
 * Error messages never include the connection string, which may hold a password.
 */
export class PostgresTranscriptStore implements TranscriptStore {
  private readonly pool: Pool;
  private readonly ownsPool: boolean;
  private readonly blobCache = new Map<string, string>();
  private readonly messages = new MessageCache();

  constructor(options: PostgresStoreOptions) {
    if (options.pool) {
      this.pool = options.pool;
      this.ownsPool = false;
    } else if (options.connectionString) {
      this.pool = new Pool({
        connectionString: options.connectionString,
        max: options.maxConnections,
        application_name: 'durable-agent',
      });
      // An idle connection that breaks (server restart, network) emits here; without a listener
      // Node would exit. The pool drops that connection and the next query opens a new one.
      this.pool.on('error', () => undefined);
      this.ownsPool = true;
    } else {
      throw new Error('PostgresTranscriptStore needs a pool or a connection string');
    }
  }

  /** A store on its own pool, with its tables created if missing. */
  static async connect(
    connectionString: string,
    options: Omit<PostgresStoreOptions, 'pool' | 'connectionString'> = {},
  ): Promise<PostgresTranscriptStore> {
    const store = new PostgresTranscriptStore({ ...options, connectionString });
    try {
      await store.migrate();
      return store;
    } catch (err) {
      await store.close();
      throw err;
    }
  }

  /** Creates the tables if missing; safe to run from several processes at once. */
  async migrate(): Promise<void> {
    await migrateLocked(this.pool, SCHEMA);
  }

  async putBlob(content: string): Promise<string> {
    const ref = await this.putBytes(Buffer.from(content, 'utf8'));
    this.remember(ref, content);
    return ref;
  }

  /** Bytes are not kept in the text cache: workspace files are many and mostly written once. */
  async putBytes(content: Uint8Array): Promise<string> {
    const ref = blobRef(content);
    if (this.blobCache.has(ref)) return ref;
    await this.pool.query('INSERT INTO blobs (ref, content) VALUES ($1, $2) ON CONFLICT (ref) DO NOTHING', [
      ref,
      Buffer.from(content.buffer, content.byteOffset, content.byteLength),
    ]);
    return ref;
  }

  async getBytes(ref: string): Promise<Buffer> {
    const cached = this.blobCache.get(ref);
    if (cached !== undefined) return Buffer.from(cached, 'utf8');
    checkRef(ref);
    const { rows } = await this.pool.query<{ content: Buffer }>('SELECT content FROM blobs WHERE ref = $1', [ref]);
    if (rows.length === 0) throw new BlobMissingError(ref);
    return rows[0].content;
  }

  async getBlob(ref: string): Promise<string> {
    const cached = this.blobCache.get(ref);
    if (cached !== undefined) return cached;
    return this.remember(ref, (await this.getBytes(ref)).toString('utf8'));
  }

  async writeMessage(transcriptId: string, index: number, message: Content, attempt = 1): Promise<void> {
    const ref = await this.putBlob(JSON.stringify(message));
    await this.pool.query(UPSERT_MESSAGE, [transcriptId, index, ref, attempt]);
  }

  async readMessages(transcriptId: string, length: number): Promise<Content[]> {
    if (length === 0) return [];
    const { rows } = await this.pool.query<{ idx: number; ref: string }>(
      'SELECT idx, ref FROM transcript_messages WHERE transcript_id = $1 AND idx >= 0 AND idx < $2 ORDER BY idx',
      [transcriptId, length],
    );
    // Rows come sorted and unique by index, so the first row out of place marks the first gap.
    for (let i = 0; i < length; i++) {
      if (rows[i]?.idx !== i) throw new TranscriptGapError(transcriptId, i);
    }
    // Messages parsed before are taken first, so that parsing the others cannot evict one of them.
    const parsed = new Map<string, Content>();
    for (const row of rows) {
      const message = this.messages.get(row.ref);
      if (message) parsed.set(row.ref, message);
    }
    const contents = await this.loadBlobs(rows.map((row) => row.ref).filter((ref) => !parsed.has(ref)));
    return rows.map((row) => parsed.get(row.ref) ?? this.messages.parse(row.ref, contents.get(row.ref)!));
  }

  /** Ends the pool if the store made it; a pool passed in is the caller's to end. */
  async close(): Promise<void> {
    if (this.ownsPool) await this.pool.end();
  }

  /** The content of every ref: from the cache, and the rest in one query. */
  private async loadBlobs(refs: string[]): Promise<Map<string, string>> {
    const contents = new Map<string, string>();
    for (const ref of refs) {
      const cached = this.blobCache.get(ref);
      if (cached !== undefined) contents.set(ref, cached);
    }
    const missing = [...new Set(refs.filter((ref) => !contents.has(ref)))];
    if (missing.length === 0) return contents;
    const { rows } = await this.pool.query<{ ref: string; content: Buffer }>(
      'SELECT ref, content FROM blobs WHERE ref = ANY($1::text[])',
      [missing],
    );
    for (const row of rows) contents.set(row.ref, this.remember(row.ref, row.content.toString('utf8')));
    const lost = missing.find((ref) => !contents.has(ref));
    if (lost) throw new Error(`no blob ${lost} in the PostgreSQL transcript store`);
    return contents;
  }

  private remember(ref: string, content: string): string {
    if (this.blobCache.size >= BLOB_CACHE_LIMIT) {
      const oldest = this.blobCache.keys().next().value;
      if (oldest !== undefined) this.blobCache.delete(oldest);
    }
    this.blobCache.set(ref, content);
    return content;
  }
}

function checkRef(ref: string): void {
  if (!BLOB_REF.test(ref)) throw new Error(`not a blob reference: ${ref}`);
}
