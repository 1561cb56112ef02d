import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ExecResult } from '../tools/types';
import { ensurePrivateDir, readNoFollow } from '../private-files';
import { processAlive } from '../process-alive';

const POLL_MS = 200;

/**
 * Where the spawner keeps a shell command's outcome, by the call's journal key, in `<home>/commands`.
 * The spawner outlives a killed worker and its commands run on; a worker that takes the call over
 * on this host waits for the command and answers with its real output and exit code, instead of
 * "outcome unknown". The command is never started again.
 */
export interface CommandRecords {
  /** The record's path (without extension) for a call, its folder made private. */
  pathFor(key: string): string;
  /** What the command of `key` ended with, waiting while it still runs; undefined when unknowable. */
  outcome(key: string, signal: AbortSignal): Promise<ExecResult | undefined>;
  remove(key: string): void;
}

interface Recorded {
  code: number | null;
  signal: string | null;
  timedOut: boolean;
  error?: string;
  pid?: number;
  output: string;
}

export function commandRecords(dir: string): CommandRecords {
  const base = (key: string) => path.join(dir, createHash('sha256').update(key).digest('hex').slice(0, 32));
  return {
    pathFor(key) {
      ensurePrivateDir(dir);
      return base(key);
    },
    async outcome(key, signal) {
      const file = base(key);
      while (!signal.aborted) {
        const done = readJson<Recorded>(`${file}.json`);
        if (done) return done.error ? undefined : toResult(done);
        const running = readJson<{ spawner: number }>(`${file}.running`);
        if (!running || !processAlive(running.spawner)) {
          // It may have finished between the two reads.
          const last = readJson<Recorded>(`${file}.json`);
          return last && !last.error ? toResult(last) : undefined;
        }
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
      return undefined;
    },
    remove(key) {
      for (const ext of ['.json', '.running']) fs.rmSync(`${base(key)}${ext}`, { force: true });
    },
  };
}

function toResult(r: Recorded): ExecResult {
  return { output: r.output, exitCode: r.code, signal: r.signal, timedOut: r.timedOut, aborted: false, pid: r.pid };
}

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(readNoFollow(file)) as T;
  } catch {
    return undefined;
  }
}
