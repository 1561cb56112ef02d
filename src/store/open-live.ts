import * as path from 'node:path';
import { FileLiveStream, type LiveStream } from './live-stream';

/** The file live stream of an agent home: where workers publish and followers read. */
export function fileLiveStream(home: string): FileLiveStream {
  return new FileLiveStream(path.join(home, 'live'));
}

/**
 * The live stream alone, for a client that follows a prompt (`run`, `watch`, `chat`). Best effort:
 * a database that cannot be reached means no live preview, never a failed command. `pg` is loaded
 * only for a PostgreSQL store, so following a prompt costs `run`'s start nothing.
 */
export async function openLiveStream(config: {
  home: string;
  storeUrl?: string;
}): Promise<{ live?: LiveStream; close(): Promise<void> }> {
  if (!config.storeUrl) return { live: fileLiveStream(config.home), close: async () => undefined };
  const [{ Pool }, { PostgresLiveStream }] = await Promise.all([import('pg'), import('./postgres-live')]);
  const pool = new Pool({ connectionString: config.storeUrl, max: 2 });
  pool.on('error', () => undefined);
  const live = new PostgresLiveStream(pool);
  const ok = await live.migrate().then(
    () => true,
    () => false,
  );
  return { live: ok ? live : undefined, close: () => pool.end() };
}
