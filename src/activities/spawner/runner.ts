import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { LAUNCHER_PROGRAM, SPAWNER_PROGRAM } from './program';
import type { Interactive, ProcessRunner, RunIo, RunOutcome, RunRequest } from './types';

export type { Interactive, ProcessRunner, RunIo, RunOutcome, RunRequest } from './types';

type Reply =
  | { id: number; ev: 'started'; pid: number }
  | { id: number; ev: 'out'; fd: 1 | 2; data: string }
  | { id: number; ev: 'done'; code: number | null; signal: NodeJS.Signals | null; timedOut: boolean; error?: string };

interface Pending {
  io: RunIo;
  pid?: number;
  aborted: boolean;
  killGraceMs: number;
  /** Counts for keeping the event loop alive (commands do; interactive processes do not). */
  holds: boolean;
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
    run: (request, io) => current().launch(request, io).done,
    open: (request, io) => current().launch({ ...request, interactive: true }, io),
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

  launch(request: RunRequest, io: RunIo): Interactive {
    const id = this.nextId++;
    const holds = !request.interactive && !io.unref;
    const stop = () => this.send({ op: 'stop', id });
    const done = new Promise<RunOutcome>((resolve) => {
      const entry: Pending = { io, aborted: false, killGraceMs: request.killGraceMs, holds, resolve };
      const onAbort = () => {
        entry.aborted = true;
        stop();
      };
      entry.resolve = (outcome) => {
        io.signal?.removeEventListener('abort', onAbort);
        this.pending.delete(id);
        if (![...this.pending.values()].some((p) => p.holds)) this.idle(true);
        resolve(outcome);
      };
      this.pending.set(id, entry);
      if (holds) this.idle(false);
      this.send({ op: 'run', id, ...request });
      if (io.signal?.aborted) onAbort();
      else io.signal?.addEventListener('abort', onAbort, { once: true });
    });
    return {
      write: (data) => this.send({ op: 'in', id, data }),
      end: () => this.send({ op: 'eof', id }),
      stop,
      done,
    };
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
    if (reply.ev === 'started') {
      entry.pid = reply.pid;
      entry.io.onStarted?.(reply.pid);
    } else if (reply.ev === 'out') entry.io.onOutput(reply.fd, reply.data);
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
