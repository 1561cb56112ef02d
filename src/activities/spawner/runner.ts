import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { LAUNCHER_PROGRAM, SPAWNER_PROGRAM } from './program';

/** One command for the spawner: run `argv` in a process group of its own. */
export interface RunRequest {
  argv: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Written to the command's stdin, which is then closed; none: stdin is /dev/null. */
  stdin?: string;
  timeoutMs: number;
  /** SIGTERM to SIGKILL, at the timeout or on abort. */
  killGraceMs: number;
  /** After the command exits, how long to wait for pipes held open by what it left running (none: wait for them). */
  drainMs?: number;
}

export interface RunOutcome {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** The abort signal fired and the group was told to stop. */
  aborted: boolean;
  pid?: number;
  /** The command could not start, or the spawner was lost while it ran. */
  error?: string;
}

export interface RunIo {
  onOutput(fd: 1 | 2, data: string): void;
  signal?: AbortSignal;
}

/** Starts commands and hooks away from the worker (see program.ts for why). */
export interface ProcessRunner {
  run(request: RunRequest, io: RunIo): Promise<RunOutcome>;
  /** Starts the spawner now rather than on the first command (it takes two Node start-ups). */
  start(): void;
  /** Closes the pipe: the spawner exits once its running commands have ended. */
  close(): void;
}

type Reply =
  | { id: number; ev: 'started'; pid: number }
  | { id: number; ev: 'out'; fd: 1 | 2; data: string }
  | { id: number; ev: 'done'; code: number | null; signal: NodeJS.Signals | null; timedOut: boolean; error?: string };

interface Pending {
  io: RunIo;
  pid?: number;
  aborted: boolean;
  killGraceMs: number;
  resolve(outcome: RunOutcome): void;
}

/** A runner that starts its spawner on first use, and a new one if that one is lost. */
export function createProcessRunner(): ProcessRunner {
  let spawner: Spawner | undefined;
  const current = () => {
    if (!spawner || spawner.lost) spawner = new Spawner();
    return spawner;
  };
  return {
    run: (request, io) => current().run(request, io),
    start: () => void current(),
    close() {
      spawner?.close();
      spawner = undefined;
    },
  };
}

let shared: ProcessRunner | undefined;

/** The process's runner, for callers not given one (tests, tools run outside a worker). */
export function defaultProcessRunner(): ProcessRunner {
  shared ??= createProcessRunner();
  return shared;
}

class Spawner {
  lost = false;
  /** Closed from here: its running commands are left to their deadlines, as after a crash. */
  private closed = false;
  private readonly child: ChildProcess;
  private readonly channel: Socket;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private buffered = '';
  private stderr = '';

  constructor() {
    // The empty environment is the point: the spawner's is what commands can read of their parent.
    this.child = spawn(process.execPath, ['-e', LAUNCHER_PROGRAM, SPAWNER_PROGRAM], {
      env: {},
      cwd: '/',
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    });
    this.channel = this.child.stdio[3] as Socket;
    this.channel.setEncoding('utf8').on('data', (chunk: string) => this.receive(chunk));
    this.channel.on('close', () => this.onLost());
    this.channel.on('error', () => undefined);
    this.child.stderr
      ?.setEncoding('utf8')
      .on('data', (chunk: string) => (this.stderr = (this.stderr + chunk).slice(-2000)));
    this.child.on('error', (err) => ((this.stderr += err.message), this.onLost()));
    this.child.unref();
    this.idle(true);
  }

  run(request: RunRequest, io: RunIo): Promise<RunOutcome> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      const entry: Pending = { io, aborted: false, killGraceMs: request.killGraceMs, resolve };
      const onAbort = () => {
        entry.aborted = true;
        this.send({ op: 'stop', id });
      };
      entry.resolve = (outcome) => {
        io.signal?.removeEventListener('abort', onAbort);
        this.pending.delete(id);
        if (this.pending.size === 0) this.idle(true);
        resolve(outcome);
      };
      this.pending.set(id, entry);
      this.idle(false);
      this.send({ op: 'run', id, ...request });
      if (io.signal?.aborted) onAbort();
      else io.signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  close(): void {
    this.closed = true;
    this.channel.end();
  }

  private send(message: object): void {
    if (!this.lost) this.channel.write(`${JSON.stringify(message)}\n`);
  }

  /** An idle spawner does not keep the worker's event loop alive. */
  private idle(idle: boolean): void {
    for (const stream of [this.channel, this.child.stderr as Socket | null]) {
      if (idle) stream?.unref();
      else stream?.ref();
    }
  }

  private receive(chunk: string): void {
    const lines = (this.buffered + chunk).split('\n');
    this.buffered = lines.pop() ?? '';
    for (const line of lines) if (line !== '') this.dispatch(JSON.parse(line) as Reply);
  }

  private dispatch(reply: Reply): void {
    const entry = this.pending.get(reply.id);
    if (!entry) return;
    if (reply.ev === 'started') entry.pid = reply.pid;
    else if (reply.ev === 'out') entry.io.onOutput(reply.fd, reply.data);
    else
      entry.resolve({
        exitCode: reply.code,
        signal: reply.signal,
        timedOut: reply.timedOut,
        aborted: entry.aborted,
        pid: entry.pid,
        error: reply.error,
      });
  }

  /** The spawner died (killed by a command, say): its commands are stopped from here and reported failed. */
  private onLost(): void {
    if (this.lost) return;
    this.lost = true;
    const why = this.closed
      ? 'the process runner was closed'
      : `the process spawner exited${this.stderr.trim() ? `: ${this.stderr.trim()}` : ''}`;
    for (const entry of [...this.pending.values()]) {
      if (entry.pid !== undefined && !this.closed) stopGroup(entry.pid, entry.killGraceMs);
      entry.resolve({
        exitCode: null,
        signal: null,
        timedOut: false,
        aborted: entry.aborted,
        pid: entry.pid,
        error: why,
      });
    }
  }
}

function stopGroup(pid: number, graceMs: number): void {
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-pid, name);
    } catch {
      // The group is gone.
    }
  };
  signal('SIGTERM');
  setTimeout(() => signal('SIGKILL'), graceMs).unref();
}
