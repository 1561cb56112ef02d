/**
 * jest globalTeardown: stops the dev server that global setup started and removes the run's
 * temporary directory. The server handle is used when this runs in setup's process (jest 29);
 * otherwise the pid file in the temporary directory tells which process to stop.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DevServer } from '../../src/server/dev-server';
import { TEST_ENV_VARS } from '../helpers/temporal-env';
import { SERVER_HANDLE, SERVER_PID_FILE } from './global-setup';

export default async function globalTeardown(): Promise<void> {
  const tmpDir = process.env[TEST_ENV_VARS.tmpDir];
  const handle = (globalThis as Record<symbol, unknown>)[SERVER_HANDLE] as DevServer | undefined;
  if (handle) {
    await handle.stop();
    delete (globalThis as Record<symbol, unknown>)[SERVER_HANDLE];
  } else if (tmpDir && fs.existsSync(path.join(tmpDir, SERVER_PID_FILE))) {
    await stopPid(Number(fs.readFileSync(path.join(tmpDir, SERVER_PID_FILE), 'utf8')));
  }
  if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
  // In watch mode setup runs again in this process: it must not mistake these for an external server.
  for (const name of Object.values(TEST_ENV_VARS)) delete process.env[name];
}

async function stopPid(pid: number): Promise<void> {
  if (!signal(pid, 'SIGTERM')) return;
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    if (!signal(pid, 0)) return;
  }
  signal(pid, 'SIGKILL');
}

/** False when the process no longer exists. */
function signal(pid: number, sig: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, sig);
    return true;
  } catch {
    return false;
  }
}
