/**
 * A cross-process lock for one-time installs under a tools directory. `mkdir` is atomic, so the
 * process that creates `<toolsDir>/install.lock` owns it; it records its pid and start time so
 * that others can tell a live owner from one that died.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { processAlive } from '../process-alive';

/** Grace for a new lock owner between creating the lock directory and writing its owner file. */
const LOCK_OWNERLESS_GRACE_MS = 10_000;
const POLL_MS = 500;

/**
 * Runs `fn` holding `<toolsDir>/install.lock`, so that concurrent processes on one machine (jest
 * workers, two shells) install once. A lock whose owner process is gone, or that is older than
 * `staleAfterMs` (longer than any install can take), is broken.
 */
export async function withInstallLock<T>(
  toolsDir: string,
  staleAfterMs: number,
  log: (msg: string) => void,
  fn: () => Promise<T>,
): Promise<T> {
  const lock = path.join(toolsDir, 'install.lock');
  await fs.promises.mkdir(toolsDir, { recursive: true });
  let announced = false;
  for (;;) {
    try {
      await fs.promises.mkdir(lock);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (isStaleLock(lock, staleAfterMs)) {
      log(`Breaking a stale Temporal CLI install lock at ${lock}`);
      await breakLock(lock, staleAfterMs);
      continue;
    }
    if (!announced) log(`Waiting for another process to finish installing the Temporal CLI (${lock})`);
    announced = true;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  fs.writeFileSync(path.join(lock, 'owner.json'), JSON.stringify({ pid: process.pid, since: Date.now() }));
  try {
    return await fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

function isStaleLock(lock: string, staleAfterMs: number): boolean {
  try {
    const owner = JSON.parse(fs.readFileSync(path.join(lock, 'owner.json'), 'utf8')) as { pid: number; since: number };
    return !processAlive(owner.pid) || Date.now() - owner.since > staleAfterMs;
  } catch {
    try {
      return Date.now() - fs.statSync(lock).mtimeMs > LOCK_OWNERLESS_GRACE_MS;
    } catch {
      return false; // released meanwhile: the next mkdir decides
    }
  }
}

/**
 * Renames, re-checks, then deletes: when two processes break the same stale lock, the slower one
 * may have renamed the faster one's fresh lock, and puts it back.
 */
async function breakLock(lock: string, staleAfterMs: number): Promise<void> {
  const doomed = `${lock}.stale-${process.pid}-${Date.now()}`;
  try {
    await fs.promises.rename(lock, doomed);
  } catch {
    return;
  }
  if (!isStaleLock(doomed, staleAfterMs)) {
    await fs.promises.rename(doomed, lock).catch(() => undefined);
    return;
  }
  await fs.promises.rm(doomed, { recursive: true, force: true });
}
