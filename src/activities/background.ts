import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { BackgroundProcess, BackgroundShells } from '../tools/types';
import { withoutSecrets } from './env-filter';
import { processAlive } from '../process-alive';

/** Output kept per background process; past it the rest is dropped and the file says so. */
export const BACKGROUND_OUTPUT_CAP_BYTES = 1024 * 1024;

interface Entry extends BackgroundProcess {
  logPath: string;
}

/**
 * The background shell commands of this worker process. A process belongs to the worker that
 * started it: only that worker holds its pipes and knows when it ends. Each process leaves a
 * record (`<owner pid>-<pid>.json`) and its output (`.log`) in a directory shared by the workers of
 * the host, so that another worker asked about it can tell that its owner has died: the process is
 * then reported lost, never started again.
 */
export function createBackgroundShells(dir = path.join(os.tmpdir(), 'durable-agent-background')): BackgroundShells {
  const mine = new Map<number, Entry>();
  return {
    start: (command, cwd, workspace) => startProcess(dir, mine, { command, cwd, workspace }),
    async list(workspace) {
      const lost = foreignRecords(dir).filter((r) => r.workspace === workspace && !processAlive(r.owner));
      return [
        ...[...mine.values()].filter((e) => e.workspace === workspace).map(({ logPath: _, ...e }) => e),
        ...lost.map((r) => ({ pid: r.pid, command: r.command, workspace, status: 'lost' as const })),
      ];
    },
    async read(pid, workspace) {
      const entry = mine.get(pid);
      if (entry && entry.workspace === workspace) {
        const { logPath, ...process } = entry;
        return { process, output: fs.existsSync(logPath) ? fs.readFileSync(logPath, 'utf8') : '' };
      }
      const record = foreignRecords(dir).find((r) => r.pid === pid && r.workspace === workspace);
      if (!record) return undefined;
      const status = processAlive(record.owner) ? ('elsewhere' as const) : ('lost' as const);
      return { process: { pid, command: record.command, workspace, status } };
    },
  };
}

/** Starts one command detached, its output appended to its log file up to the cap. */
async function startProcess(
  dir: string,
  mine: Map<number, Entry>,
  { command, cwd, workspace }: { command: string; cwd: string; workspace: string },
): Promise<number> {
  fs.mkdirSync(dir, { recursive: true });
  const child = spawn('bash', ['-c', command], {
    cwd,
    env: withoutSecrets(process.env),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => child.once('spawn', resolve).once('error', reject));
  const pid = child.pid!;
  const base = path.join(dir, `${process.pid}-${pid}`);
  const entry: Entry = { pid, command, workspace, status: 'running', logPath: `${base}.log` };
  mine.set(pid, entry);
  fs.writeFileSync(`${base}.json`, JSON.stringify({ pid, command, workspace, owner: process.pid }));
  const log = fs.openSync(entry.logPath, 'a');
  let written = 0;
  const append = (chunk: Buffer) => {
    if (written >= BACKGROUND_OUTPUT_CAP_BYTES) return;
    const room = BACKGROUND_OUTPUT_CAP_BYTES - written;
    fs.writeSync(log, chunk.subarray(0, room));
    written += Math.min(room, chunk.length);
    if (written >= BACKGROUND_OUTPUT_CAP_BYTES) fs.writeSync(log, '\n[output past 1 MiB was dropped]\n');
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  child.once('close', (code, signal) => {
    Object.assign(entry, { status: 'exited', exitCode: code, signal: signal ?? undefined });
    fs.closeSync(log);
  });
  child.unref();
  return pid;
}

interface RecordFile {
  pid: number;
  command: string;
  workspace: string;
  owner: number;
}

/** Records of processes other workers of this host started. */
function foreignRecords(dir: string): RecordFile[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json') && !f.startsWith(`${process.pid}-`))
    .flatMap((f) => {
      try {
        return [JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as RecordFile];
      } catch {
        return [];
      }
    });
}

let shared: BackgroundShells | undefined;

/** The worker process's one registry (tool activities of every prompt on this worker share it). */
export function workerBackgroundShells(): BackgroundShells {
  shared ??= createBackgroundShells();
  return shared;
}
