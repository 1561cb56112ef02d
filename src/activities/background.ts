import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { BackgroundProcess, BackgroundShells } from '../tools/types';
import { commandEnvironment } from '../config/env';
import { processAlive } from '../process-alive';
import { createPrivateFile, ensurePrivateDir, readNoFollow } from '../private-files';
import { defaultProcessRunner, type ProcessRunner } from './spawner/runner';

/** Output kept per background process; past it the rest is dropped and the file says so. */
export const BACKGROUND_OUTPUT_CAP_BYTES = 1024 * 1024;
/** SIGTERM to SIGKILL, when a background command is stopped. */
const KILL_GRACE_MS = 2000;

interface Entry extends BackgroundProcess {
  logPath: string;
}

export interface BackgroundOptions {
  /** Where records and logs go: `<home>/background`, 0700, shared by the workers of this home. */
  dir: string;
  /** Starts the commands, away from the worker as foreground ones are (no ancestor holds its secrets). */
  runner?: ProcessRunner;
  /** The commands' whole environment, already without secrets. */
  env?: NodeJS.ProcessEnv;
}

/**
 * The background shell commands of this worker process. A process belongs to the worker that
 * started it: only that worker receives its output and knows when it ends. Each process leaves a
 * record (`<owner pid>-<random>.json`) and its output (`.log`), both 0600, in a directory of the agent's
 * home, so that another worker asked about it can tell that its owner has died: the process is then
 * reported lost, never started again. Files are created, never opened through an existing name, so
 * a link planted there cannot redirect them.
 */
export function createBackgroundShells(options: BackgroundOptions): BackgroundShells {
  const mine = new Map<number, Entry>();
  const { dir } = options;
  const launch = {
    dir,
    mine,
    runner: options.runner ?? defaultProcessRunner(),
    env: options.env ?? commandEnvironment(),
  };
  return {
    start: (command, cwd, workspace) => startProcess(launch, { command, cwd, workspace }),
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
        return { process, output: fs.existsSync(logPath) ? readNoFollow(logPath) : '' };
      }
      const record = foreignRecords(dir).find((r) => r.pid === pid && r.workspace === workspace);
      if (!record) return undefined;
      const status = processAlive(record.owner) ? ('elsewhere' as const) : ('lost' as const);
      return { process: { pid, command: record.command, workspace, status } };
    },
  };
}

interface Launch {
  dir: string;
  mine: Map<number, Entry>;
  runner: ProcessRunner;
  env: NodeJS.ProcessEnv;
}

/** Starts one command in a process group of its own, its output appended to its log file up to the cap. */
async function startProcess(
  { dir, mine, runner, env }: Launch,
  { command, cwd, workspace }: { command: string; cwd: string; workspace: string },
): Promise<number> {
  ensurePrivateDir(dir);
  // A name nobody can guess, created before the command starts: a failure here runs nothing.
  const base = path.join(dir, `${process.pid}-${randomUUID()}`);
  const log = { fd: createPrivateFile(`${base}.log`), written: 0 };
  const append = (chunk: string) => {
    const bytes = Buffer.from(chunk, 'utf8');
    if (log.written >= BACKGROUND_OUTPUT_CAP_BYTES) return;
    const room = BACKGROUND_OUTPUT_CAP_BYTES - log.written;
    fs.writeSync(log.fd, bytes.subarray(0, room));
    log.written += Math.min(room, bytes.length);
    if (log.written >= BACKGROUND_OUTPUT_CAP_BYTES) fs.writeSync(log.fd, '\n[output past 1 MiB was dropped]\n');
  };
  const entry: Entry = { pid: 0, command, workspace, status: 'running', logPath: `${base}.log` };
  let started: (pid: number) => void = () => undefined;
  const pid = new Promise<number>((resolve) => (started = resolve));
  const request = { argv: ['bash', '-c', command], cwd, env, killGraceMs: KILL_GRACE_MS };
  const done = runner.run(request, { onOutput: (_fd, data) => append(data), onStarted: started, unref: true });
  void done.then((outcome) => {
    Object.assign(entry, { status: 'exited', exitCode: outcome.exitCode, signal: outcome.signal ?? undefined });
    fs.closeSync(log.fd);
  });
  const first = await Promise.race([pid, done]);
  if (typeof first !== 'number') throw new Error(first.error ?? 'the background command did not start');
  entry.pid = first;
  mine.set(first, entry);
  writeRecord(`${base}.json`, { pid: first, command, workspace, owner: process.pid });
  return first;
}

function writeRecord(file: string, record: RecordFile): void {
  const fd = createPrivateFile(file);
  try {
    fs.writeFileSync(fd, JSON.stringify(record));
  } finally {
    fs.closeSync(fd);
  }
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
        return [JSON.parse(readNoFollow(path.join(dir, f))) as RecordFile];
      } catch {
        return [];
      }
    });
}

const registries = new Map<string, BackgroundShells>();

/**
 * The worker process's registry for `home` (tool activities of every prompt on this worker share it).
 * Without a home (tests), a private temporary directory of this process.
 */
export function workerBackgroundShells(
  home: string | undefined,
  options: Omit<BackgroundOptions, 'dir'> = {},
): BackgroundShells {
  const dir = home ? path.join(home, 'background') : (privateTemp ??= fs.mkdtempSync(path.join(os.tmpdir(), 'da-bg-')));
  const existing = registries.get(dir);
  if (existing) return existing;
  const created = createBackgroundShells({ dir, ...options });
  registries.set(dir, created);
  return created;
}

let privateTemp: string | undefined;
