import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Logger } from '../logger';
import { processAlive } from '../process-alive';
import { inheritedEnvironment, type Config } from '../config/env';

/** Spares in a row that end without serving a command before the owner stops making them. */
const MAX_FAILURES = 3;

/**
 * The first spare starts this long after the worker: a restarted worker's first seconds resume what a
 * dead one left (its sweep, replays, the interrupted calls), and a spare loading the CLI beside them
 * (~0.5 s of CPU) slowed that resume by a third on two cores. A `run` before then loads the CLI itself.
 */
const FIRST_SPARE_DELAY_MS = 2000;

export function spareSocketPath(home: string): string {
  return path.join(home, 'spare.sock');
}

/** DURABLE_AGENT_SPARE=0 turns the spare off, for the owner and for the client alike. */
export function spareEnabled(config: Pick<Config, 'spareAllowed'>, flag: boolean): boolean {
  return flag && config.spareAllowed;
}

/**
 * Keeps one idle spare process (cli/spare.ts) for the agent's home while a `worker` or `server`
 * runs; returns what stops it. One owner per home: the first one alive keeps `<home>/spare.owner`,
 * a second runs without a spare. A spare that has taken a command is left to finish it.
 */
export function keepSpare(home: string, logger: Logger): () => void {
  const lock = path.join(home, 'spare.owner');
  if (!takeLock(lock)) {
    logger.info({ owner: fs.readFileSync(lock, 'utf8').trim() }, 'another process keeps the spare for this home');
    return () => undefined;
  }
  let idle: ChildProcess | undefined;
  let failures = 0;
  let stopped = false;
  const next = () => {
    if (stopped) return;
    const child = spawn(process.execPath, [path.join(__dirname, 'spare.js')], {
      detached: true, // not in the terminal's process group: Ctrl-C to the owner is not the command's
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      env: inheritedEnvironment(),
    });
    idle = child;
    let served = false;
    child.on('message', (m: { t?: string }) => {
      if (m.t === 'ready') failures = 0;
      if (m.t !== 'accepted') return;
      served = true;
      idle = undefined;
      next();
    });
    child.once('exit', (code, signal) => {
      if (served || stopped) return;
      if (++failures < MAX_FAILURES) return next();
      logger.warn({ code, signal }, 'the spare process keeps failing; run commands load the CLI themselves');
    });
  };
  const first = setTimeout(next, FIRST_SPARE_DELAY_MS);
  return () => {
    stopped = true;
    clearTimeout(first);
    idle?.kill('SIGTERM');
    fs.rmSync(spareSocketPath(home), { force: true });
    if (readLock(lock) === process.pid) fs.rmSync(lock, { force: true });
  };
}

/** Takes `<home>/spare.owner` unless a live process holds it; a dead owner's lock is taken over. */
function takeLock(lock: string): boolean {
  fs.mkdirSync(path.dirname(lock), { recursive: true, mode: 0o700 });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lock, `${process.pid}\n`, { mode: 0o600, flag: 'wx' });
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = readLock(lock);
      if (holder !== undefined && processAlive(holder)) return false;
      fs.rmSync(lock, { force: true });
    }
  }
  return false;
}

function readLock(lock: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(lock, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
