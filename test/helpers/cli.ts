/**
 * Runs the real `durable-agent` binary as a user would: a child process with stdin closed, its own
 * home directory, no Gemini key, and a time limit. Every child runs in a process group of its own,
 * so it can be stopped together with the Temporal dev server it may have started.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { toJsonl, type ScriptLine } from '../../src/fake-gemini';
import { recordOwnAddress } from '../../src/runtime/own-server';
import { isServerReachable } from '../../src/server/dev-server';
import { TEST_ENV_VARS } from './temporal-env';
import { GEMINI_3 } from '../../src/core/models';

/**
 * Options naming the model, for runs whose script answers no routing: without a model the default
 * `auto` asks the classifier first, a call such a script would not expect.
 */
export const NAMED_MODEL = ['-m', GEMINI_3.strong];

export const BIN = path.resolve(__dirname, '..', '..', 'bin', 'durable-agent.js');
/** A PATH with node on it and neither `durable-agent` nor `temporal`, as in a fresh shell after `npm ci`. */
export const BARE_PATH = [path.dirname(process.execPath), '/usr/bin', '/bin'].join(path.delimiter);

const DEFAULT_TIMEOUT_MS = 90_000;

/** Variables a developer's shell may hold that would change what the binary does. */
const SCRUBBED = /^(GEMINI_API_KEY|GOOGLE_API_KEY|GOOGLE_GEMINI_BASE_URL|TEMPORAL_.*|DURABLE_AGENT_.*|DA_TEST_.*)$/;

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  timedOut: boolean;
}

/** A running `durable-agent` child; `done` settles when it has exited and its pipes have closed. */
/** Fails with the child's output, which says more than a bare exit code. */
export function expectExit(result: CliResult, code: number): void {
  if (result.code === code) return;
  const how = `${result.code ?? result.signal} after ${result.ms} ms${result.timedOut ? ' (timed out)' : ''}`;
  throw new Error(`expected exit ${code}, got ${how}\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`);
}

export class CliProcess {
  stdout = '';
  stderr = '';
  readonly done: Promise<CliResult>;
  private timedOut = false;
  private exited = false;

  constructor(
    readonly child: ChildProcess,
    timeoutMs: number,
  ) {
    const started = Date.now();
    child.stdout?.on('data', (d: Buffer) => (this.stdout += d.toString('utf8')));
    child.stderr?.on('data', (d: Buffer) => (this.stderr += d.toString('utf8')));
    const timer = setTimeout(() => {
      this.timedOut = true;
      this.kill('SIGKILL');
    }, timeoutMs);
    this.done = new Promise((resolve) => {
      child.once('close', (code, signal) => {
        clearTimeout(timer);
        this.exited = true;
        resolve({
          code,
          signal,
          stdout: this.stdout,
          stderr: this.stderr,
          ms: Date.now() - started,
          timedOut: this.timedOut,
        });
      });
    });
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  /** Signals the whole process group (the binary and whatever it spawned without detaching). */
  kill(signal: NodeJS.Signals = 'SIGTERM'): void {
    if (this.exited) return;
    try {
      process.kill(-this.pid, signal);
    } catch {
      // already gone
    }
  }

  /** Resolves with the first match of `pattern` in the stream's output so far or to come. */
  async waitFor(stream: 'stdout' | 'stderr', pattern: RegExp, timeoutMs = 60_000): Promise<RegExpMatchArray> {
    return eventually(
      () => this[stream].match(pattern) ?? undefined,
      timeoutMs,
      `${stream} to match ${pattern}; ${stream} so far:\n${this[stream]}\n(other stream:\n${this[stream === 'stdout' ? 'stderr' : 'stdout']})`,
    );
  }
}

const running = new Set<CliProcess>();

export interface Sandbox {
  dir: string;
  home: string;
  workspace: string;
  /** The child's environment; `extra` entries set to undefined are removed. */
  env(extra?: Record<string, string | undefined>): NodeJS.ProcessEnv;
  /** Writes a `--fake-responses` script and returns its path. */
  script(lines: ScriptLine[], name?: string): string;
  start(args: string[], options?: { env?: Record<string, string | undefined>; timeoutMs?: number }): CliProcess;
  run(args: string[], options?: { env?: Record<string, string | undefined>; timeoutMs?: number }): Promise<CliResult>;
}

let counter = 0;

/**
 * A directory with `durable-agent` and `temporal` in it, first on the sandbox's PATH: the shell of a
 * user who ran `npm link`, in which the CLI's hints name the programs bare. A test of the hints as a
 * fresh shell sees them sets its own PATH.
 */
function linkedBin(dir: string): string {
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin);
  fs.symlinkSync(BIN, path.join(bin, 'durable-agent'));
  fs.symlinkSync(requireEnv(TEST_ENV_VARS.cliPath), path.join(bin, 'temporal'));
  return bin;
}

/**
 * A directory of its own under the run's temporary directory: DURABLE_AGENT_HOME, a workspace and
 * scripts. `temporalAddress` becomes TEMPORAL_ADDRESS, recorded as the home's own embedded server's
 * address (so a command there may start it) unless `ownAddress` is false; the Temporal CLI is the
 * one global setup found.
 */
export function createSandbox(name: string, temporalAddress?: string, ownAddress = true): Sandbox {
  const tmp = requireEnv(TEST_ENV_VARS.tmpDir);
  const dir = fs.mkdtempSync(path.join(tmp, `cli-${name}-${++counter}-`));
  const home = path.join(dir, 'home');
  const workspace = path.join(dir, 'ws');
  fs.mkdirSync(workspace);
  if (temporalAddress && ownAddress) recordOwnAddress(home, temporalAddress);
  const linked = linkedBin(dir);
  let scripts = 0;
  const env = (extra: Record<string, string | undefined> = {}) => {
    const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !SCRUBBED.test(k)));
    const all: NodeJS.ProcessEnv = {
      ...base,
      DURABLE_AGENT_HOME: home,
      TEMPORAL_CLI_PATH: requireEnv(TEST_ENV_VARS.cliPath),
      PATH: [linked, process.env.PATH].filter(Boolean).join(path.delimiter),
    };
    if (temporalAddress) all.TEMPORAL_ADDRESS = temporalAddress;
    for (const [k, v] of Object.entries(extra)) {
      if (v === undefined) delete all[k];
      else all[k] = v;
    }
    return all;
  };
  const start: Sandbox['start'] = (args, options = {}) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: dir,
      env: env(options.env),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const cli = new CliProcess(child, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    running.add(cli);
    void cli.done.then(() => running.delete(cli));
    return cli;
  };
  return {
    dir,
    home,
    workspace,
    env,
    script(lines, name = `script-${++scripts}.jsonl`) {
      const file = path.join(dir, name);
      fs.writeFileSync(file, toJsonl(lines));
      return file;
    },
    start,
    run: (args, options) => start(args, options).done,
  };
}

/**
 * `createSandbox` for one test file: registers an afterEach that kills every CLI process the file's
 * sandboxes left running, the dev servers they spawned included.
 */
export function sandboxesCleanedAfterEach(): (name: string, address?: string, ownAddress?: boolean) => Sandbox {
  const homes: string[] = [];
  afterEach(async () => {
    await killAllCli(homes.splice(0));
  });
  return (name, address, ownAddress) => {
    const box = createSandbox(name, address, ownAddress);
    homes.push(box.home);
    return box;
  };
}

/** Kills every child still running (call in afterEach), then the processes they left behind under `homes`. */
export async function killAllCli(homes: string[] = []): Promise<void> {
  const left = [...running];
  for (const cli of left) cli.kill('SIGKILL');
  await Promise.all(left.map((cli) => cli.done));
  for (const pid of homes.flatMap(processesOf)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/**
 * Processes started with DURABLE_AGENT_HOME=home: the binary, a background server, and the Temporal
 * dev server they spawn (which inherits the environment). Linux /proc; other users' are unreadable.
 */
export function processesOf(home: string): number[] {
  const marker = `\0DURABLE_AGENT_HOME=${home}\0`;
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      if (`\0${fs.readFileSync(`/proc/${entry}/environ`, 'latin1')}`.includes(marker)) pids.push(Number(entry));
    } catch {
      // gone, or not ours
    }
  }
  return pids;
}

/** A local port nothing listens on, whose Web UI companion (port + 1000) is free as well. */
export async function freePortWithUi(): Promise<number> {
  for (;;) {
    const port = await listenAndRelease(0);
    if (
      port + 1000 < 65536 &&
      (await listenAndRelease(port + 1000).then(
        () => true,
        () => false,
      ))
    )
      return port;
  }
}

function listenAndRelease(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const bound = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(bound));
    });
  });
}

/** A loopback port held by `holdPort`: nothing else can take it until `release`. */
export interface HeldPort {
  port: number;
  address: string;
  /** Connections offered so far: a command looking for Temporal at `address` opens one. */
  connections(): number;
  release(): Promise<void>;
}

/**
 * Holds a loopback port for a test with a listener that speaks no gRPC: it counts and closes every connection.
 * Unlike a port found free and let go, it cannot be taken meanwhile by another suite's server, so "nothing
 * reached for Temporal here" is a count of zero instead of a check that nobody answers.
 */
export async function holdPort(): Promise<HeldPort> {
  let count = 0;
  const server = net.createServer((socket) => {
    count++;
    socket.destroy();
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    address: `127.0.0.1:${port}`,
    connections: () => count,
    release: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function portIsFree(port: number): Promise<boolean> {
  return !(await isServerReachable(`127.0.0.1:${port}`, 500));
}

/** Polls `probe` until it returns a value other than undefined/false. */
export async function eventually<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run through jest, whose global setup provides it`);
  return value;
}
