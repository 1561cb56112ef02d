import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SCRIPT = path.resolve(__dirname, '../../scripts/ensure-postgres.sh');
/** Installing Debian's package on a machine without it takes a minute or more. */
export const CLUSTER_TIMEOUT_MS = 600_000;

/** A throwaway PostgreSQL cluster of the test's own under `dir` (scripts/ensure-postgres.sh); its URL. */
export async function startPostgres(dir: string): Promise<string> {
  const { stdout } = await run('bash', [SCRIPT, dir, String(await freePort())], {
    timeout: CLUSTER_TIMEOUT_MS,
    maxBuffer: 16 * 1024 * 1024,
  });
  const url = stdout.trim().split('\n').pop() ?? '';
  if (!url.startsWith('postgresql://')) throw new Error(`no connection string in the script's output: ${stdout}`);
  return url;
}

export async function stopPostgres(dir: string): Promise<void> {
  await run('bash', [SCRIPT, 'stop', dir], { timeout: 120_000 }).catch((err: unknown) =>
    console.warn(`stopping PostgreSQL: ${String(err)}`),
  );
  await fs.rm(dir, { recursive: true, force: true });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
