import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { inspect, promisify } from 'node:util';
import { Pool } from 'pg';
import { FileTranscriptStore } from './file-store';
import { PostgresTranscriptStore } from './postgres-store';
import { PostgresToolJournal } from './postgres-journal';
import { openStores } from './open';
import { describeTranscriptStore } from './store-contract';
import { describeLiveStream } from './live-stream-contract';
import { PostgresLiveStream } from './postgres-live';
import type { TranscriptStore } from './types';

const run = promisify(execFile);
const SCRIPT = path.resolve(__dirname, '../../scripts/ensure-postgres.sh');
/** Installing Debian's package on a machine without it takes a minute or more. */
const CLUSTER_TIMEOUT_MS = 600_000;

describeTranscriptStore('FileTranscriptStore', async () => {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'da-store-'));
  return {
    store: new FileTranscriptStore(root),
    another: async () => new FileTranscriptStore(root),
    cleanup: () => fs.rm(root, { recursive: true, force: true }),
  };
});

if (process.env.DA_SKIP_POSTGRES === '1') {
  console.warn('DA_SKIP_POSTGRES=1: the PostgreSQL transcript store is NOT tested');
  it.skip('PostgresTranscriptStore (skipped by DA_SKIP_POSTGRES=1)', () => undefined);
} else {
  describe('PostgreSQL', () => {
    let dir: string;
    let url: string;

    beforeAll(async () => {
      dir = await fs.mkdtemp(path.join(os.tmpdir(), 'da-pg-'));
      url = await ensurePostgres(dir, await freePort());
      const admin = await PostgresTranscriptStore.connect(url);
      await admin.close();
    }, CLUSTER_TIMEOUT_MS);

    afterAll(async () => {
      if (!dir) return;
      await run('bash', [SCRIPT, 'stop', dir], { timeout: 120_000 }).catch((err: unknown) =>
        console.warn(`stopping PostgreSQL: ${String(err)}`),
      );
      await fs.rm(dir, { recursive: true, force: true });
    }, 180_000);

    describeTranscriptStore('PostgresTranscriptStore', async () => {
      const pool = new Pool({ connectionString: url });
      await pool.query('TRUNCATE blobs, transcript_messages');
      const opened: PostgresTranscriptStore[] = [];
      const open = (): TranscriptStore => {
        const store = new PostgresTranscriptStore({ connectionString: url, maxConnections: 2 });
        opened.push(store);
        return store;
      };
      return {
        store: open(),
        another: async () => open(),
        cleanup: async () => {
          await Promise.all(opened.map((store) => store.close()));
          await pool.end();
        },
      };
    });

    describeLiveStream('PostgresLiveStream', async () => {
      const pool = new Pool({ connectionString: url, max: 4 });
      const live = new PostgresLiveStream(pool);
      await live.migrate();
      await pool.query('TRUNCATE live_pieces');
      return { live, another: () => new PostgresLiveStream(pool), cleanup: () => pool.end() };
    });

    describePostgresSpecifics(() => url);
  });
}

function describePostgresSpecifics(url: () => string): void {
  describe('PostgresTranscriptStore specifics', () => {
    it('migrates from several processes at once, and again', async () => {
      const stores = Array.from({ length: 4 }, () => new PostgresTranscriptStore({ connectionString: url() }));
      try {
        await Promise.all(stores.map((store) => store.migrate()));
        await stores[0].migrate();
      } finally {
        await Promise.all(stores.map((store) => store.close()));
      }
    });

    it('leaves a pool passed in open on close', async () => {
      const pool = new Pool({ connectionString: url() });
      try {
        const store = new PostgresTranscriptStore({ pool });
        const ref = await store.putBlob('pooled');
        await store.close();
        expect((await pool.query('SELECT count(*)::int AS n FROM blobs WHERE ref = $1', [ref])).rows[0].n).toBe(1);
      } finally {
        await pool.end();
      }
    });

    it('keeps the side-effect journal: started, then completed with the outcome', async () => {
      const pool = new Pool({ connectionString: url() });
      try {
        const journal = new PostgresToolJournal(pool);
        await journal.migrate();
        await journal.migrate();
        expect(await journal.get('wf/c1')).toBeUndefined();
        await journal.put('wf/c1', { state: 'started', attempt: 1 });
        expect(await journal.get('wf/c1')).toEqual({ state: 'started', attempt: 1 });
        const outcome = {
          callId: 'c1',
          name: 'write_file',
          ok: true,
          preview: 'done',
          responseRef: `sha256:${'a'.repeat(64)}`,
        };
        await journal.put('wf/c1', { state: 'completed', outcome });
        expect(await new PostgresToolJournal(pool).get('wf/c1')).toEqual({ state: 'completed', outcome });
      } finally {
        await pool.end();
      }
    });

    it(
      'is chosen by configuration: a postgres:// DURABLE_AGENT_STORE gives the PostgreSQL store and ' + 'journal',
      async () => {
        const stores = await openStores({ home: os.tmpdir(), storeUrl: url() });
        try {
          expect(stores.store).toBeInstanceOf(PostgresTranscriptStore);
          expect(stores.journal).toBeInstanceOf(PostgresToolJournal);
          expect(await stores.store.getBlob(await stores.store.putBlob('configured'))).toBe('configured');
        } finally {
          await stores.close();
        }
      },
    );

    it('fails with a clear error, without the password, when the server is unreachable', async () => {
      const secret = 'hunter2-do-not-log';
      const port = await freePort();
      const store = new PostgresTranscriptStore({
        connectionString: `postgres://someone:${secret}@127.0.0.1:${port}/db`,
      });
      try {
        const err = await store.putBlob('x').then(
          () => undefined,
          (e: unknown) => e as Error,
        );
        expect(err?.message).toMatch(/ECONNREFUSED/);
        expect(`${inspect(err)} ${err?.stack}`).not.toContain(secret);
      } finally {
        await store.close();
      }
    });
  });
}

/** Starts (installing PostgreSQL first if needed) a cluster of our own; fails with the script's output. */
async function ensurePostgres(dir: string, port: number): Promise<string> {
  try {
    const { stdout } = await run('bash', [SCRIPT, dir, String(port)], {
      timeout: CLUSTER_TIMEOUT_MS,
      maxBuffer: 16 * 1024 * 1024,
    });
    const url = stdout.trim().split('\n').pop() ?? '';
    if (!url.startsWith('postgresql://')) throw new Error(`no connection string in the script's output: ${stdout}`);
    return url;
  } catch (err) {
    // execFile's message holds the command and its whole stderr, where the script says what failed.
    const { stdout = '', message } = err as { stdout?: string; message: string };
    throw new Error(
      `scripts/ensure-postgres.sh could not provide PostgreSQL (set DA_SKIP_POSTGRES=1 to skip these ` +
        `tests).\n${message}\n--- stdout ---\n${stdout}`,
    );
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
