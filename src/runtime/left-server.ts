import * as fs from 'node:fs';
import * as path from 'node:path';
import { processAlive } from '../process-alive';

/**
 * `run` ends without waiting for the embedded server's shutdown (its leash stops it), so for a second
 * or two after, that server may still answer at this home's address and still hold its database. The
 * next command of the home waits for it to be gone first: connecting to it would fail midway, and a
 * second server must not open the database while the first is still writing it.
 */
export function leftServerFile(home: string): string {
  return path.join(home, 'temporal', 'left-server.pid');
}

export function recordLeftServer(home: string, pid: number): void {
  fs.writeFileSync(leftServerFile(home), `${pid}\n`, { mode: 0o600 });
}

/** Whether a server a previous command left is still running (its shutdown not finished). */
export function leftServerRunning(home: string): boolean {
  try {
    const pid = Number(fs.readFileSync(leftServerFile(home), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 && processAlive(pid);
  } catch {
    return false;
  }
}

/** Resolves once the server a previous command left is gone (or after `timeoutMs`, a reused pid). */
export async function awaitLeftServer(home: string, timeoutMs = 20_000): Promise<void> {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(leftServerFile(home), 'utf8').trim());
  } catch {
    return;
  }
  const deadline = Date.now() + timeoutMs;
  while (Number.isInteger(pid) && pid > 0 && processAlive(pid) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
  fs.rmSync(leftServerFile(home), { force: true });
}
