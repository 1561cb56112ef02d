import * as path from 'node:path';
import { Pool } from 'pg';
import { FileTranscriptStore } from './file-store';
import { FileToolJournal, type ToolJournal } from './journal';
import type { LiveStream } from './live-stream';
import { fileLiveStream } from './open-live';
import { PostgresLiveStream } from './postgres-live';
import { PostgresToolJournal } from './postgres-journal';
import { PostgresTranscriptStore } from './postgres-store';
import type { TranscriptStore } from './types';
import { createPrivateHome } from '../private-files';

export interface Stores {
  store: TranscriptStore;
  journal: ToolJournal;
  live: LiveStream;
  close(): Promise<void>;
}

/**
 * The transcript store and side-effect journal a worker uses: files under the agent's home by
 * default (one machine, or a shared volume), or PostgreSQL when `DURABLE_AGENT_STORE` is a
 * `postgres://` URL (workers on several machines). The URL may hold a password: it is never logged.
 */
export async function openStores(config: { home: string; storeUrl?: string }): Promise<Stores> {
  if (!config.storeUrl) {
    createPrivateHome(config.home);
    return {
      store: new FileTranscriptStore(path.join(config.home, 'store')),
      journal: new FileToolJournal(path.join(config.home, 'journal')),
      live: fileLiveStream(config.home),
      close: async () => undefined,
    };
  }
  const pool = new Pool({ connectionString: config.storeUrl, max: 10 });
  pool.on('error', () => undefined);
  try {
    const store = new PostgresTranscriptStore({ pool });
    const journal = new PostgresToolJournal(pool);
    const live = new PostgresLiveStream(pool);
    await store.migrate();
    await journal.migrate();
    await live.migrate();
    return { store, journal, live, close: () => pool.end() };
  } catch (err) {
    await pool.end();
    throw err;
  }
}
