/**
 * Runs Temporal's own dev server (`temporal server start-dev`) as a child process: the embedded
 * default of durable-agent and the server of the test suite. Persistence is a SQLite file, so
 * workflows outlive the server process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { leashToThisProcess } from './server-leash';
import { capturedOutput, fileOutput } from './server-output';
import { findFreePort, isServerReachable, waitForFreePorts } from './ports';

export { findFreePort, isServerReachable };

/** Registered on every server this module starts; list and pending queries filter on them. */
export const DEFAULT_SEARCH_ATTRIBUTES: Record<string, string> = {
  DurableAgentStatus: 'Keyword',
  DurableAgentKind: 'Keyword',
  DurableAgentSession: 'Keyword',
};

export interface DevServerOptions {
  cliPath: string;
  /** SQLite file (parent directories are created). Without it the state lives in memory only. */
  dbFile?: string;
  ip?: string;
  /** Frontend gRPC port; a free one when omitted. */
  port?: number;
  /** Web UI port; defaults to the server's own choice, `port` + 1000. Ignored when headless. */
  uiPort?: number;
  headless?: boolean;
  namespace?: string;
  logLevel?: 'debug' | 'info' | 'warn' | 'error' | 'never';
  /** `--dynamic-config-value KEY=JSON` per entry, e.g. `limit.historyCount.suggestContinueAsNew: 50`. */
  dynamicConfig?: Record<string, string | number | boolean>;
  /** `--sqlite-pragma NAME=VALUE` per entry, over DEFAULT_SQLITE_PRAGMAS (only with `dbFile`). */
  sqlitePragmas?: Record<string, string>;
  /** Replaces DEFAULT_SEARCH_ATTRIBUTES. */
  searchAttributes?: Record<string, string>;
  /** 'pipe' (default) keeps the output's tail for error messages only. */
  stdio?: 'pipe' | 'inherit' | 'ignore';
  /** Instead of `stdio`: the output goes to this file (truncated), which outlives this process's pipes. */
  outputFile?: string;
  log?: (msg: string) => void;
  /** How long to wait for the frontend to serve; slow on a busy 2-core machine. Default 60 s. */
  startTimeoutMs?: number;
  /** Stop the server when this Node process ends, even by `kill -9` (default true). */
  killOnExit?: boolean;
}

export interface DevServer {
  /** `host:port` of the frontend, for `Connection.connect` and `NativeConnection.connect`. */
  address: string;
  uiUrl?: string;
  process: ChildProcess;
  /** SIGTERM, then SIGKILL after `graceMs` (default 10 s); resolves once the process has exited. */
  stop(graceMs?: number): Promise<void>;
  /**
   * Lets this process end without waiting for the server's shutdown (a second or two): its leash sends
   * it SIGTERM once this process is gone, and it finishes writing its database alone. Only a leashed
   * server writing to `outputFile` can be left (a pipe to a dead reader would kill it mid-shutdown);
   * any other is stopped and awaited. Resolves with the pid left running, if any.
   */
  leave(): Promise<number | undefined>;
}

/**
 * Pragmas of every server started with a database file. WAL keeps SQLite's synchronous=FULL (a
 * commit survives a power cut) but commits with one sync of the log instead of the rollback
 * journal's several; `npm run bench` measured a turn a third cheaper, and steadier under disk load.
 */
export const DEFAULT_SQLITE_PRAGMAS: Record<string, string> = { journal_mode: 'wal' };

/**
 * Starts the dev server and resolves once its frontend answers for `namespace`. A start that fails
 * on a port still in use (a server killed a moment ago, a port another process held briefly) is
 * tried once more when the port is free again.
 */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const ip = options.ip ?? '127.0.0.1';
  const port = options.port ?? (await findFreePort(ip));
  try {
    return await launch(options, ip, port);
  } catch (err) {
    if (!(err instanceof PortInUseError)) throw err;
    const ports = options.headless ? [port] : [port, options.uiPort ?? port + 1000];
    const say = options.log ?? ((msg: string) => void process.stderr.write(`${msg}\n`));
    say(`Temporal dev server at ${ip}:${port} found a port in use; starting it again once ${ports.join(', ')} free`);
    if (!(await waitForFreePorts(ip, ports, PORT_WAIT_MS))) throw err;
    return launch(options, ip, port);
  }
}

/** How long a restart waits for a port in use to be released before it gives up. */
const PORT_WAIT_MS = 10_000;

/** The server exited before serving because one of its ports was in use. */
class PortInUseError extends Error {}

async function launch(options: DevServerOptions, ip: string, port: number): Promise<DevServer> {
  const address = `${ip}:${port}`;
  if (options.dbFile) fs.mkdirSync(path.dirname(path.resolve(options.dbFile)), { recursive: true, mode: 0o700 });
  const output = options.outputFile ? fs.openSync(options.outputFile, 'w', 0o600) : (options.stdio ?? 'pipe');
  const child = spawn(options.cliPath, devServerArgs(options, ip, port), { stdio: ['ignore', output, output] });
  if (typeof output === 'number') fs.closeSync(output);
  const said = options.outputFile ? fileOutput(options.outputFile) : capturedOutput(child);
  // 'close' rather than 'exit': the output's tail is complete only once the pipes have closed.
  const exited = new Promise<string>((resolve) => {
    child.once('close', (code, signal) => resolve(signal ?? `code ${code}`));
    child.once('error', (err) => resolve(err.message));
  });
  const killer = () => child.kill('SIGKILL');
  let leashed = false;
  if (options.killOnExit !== false) {
    leashed = leashToThisProcess(child);
    process.on('exit', killer);
    void exited.then(() => process.off('exit', killer));
  }
  const stop = (graceMs = 10_000) => stopProcess(child, exited, graceMs);
  const leave = async () => {
    if (!leashed || !options.outputFile || !(await isRunning(exited))) return void (await stop());
    process.off('exit', killer);
    return child.pid;
  };
  try {
    await waitUntilServing(address, options.namespace ?? 'default', exited, options.startTimeoutMs ?? 60_000);
  } catch (err) {
    await stop(2000);
    const tail = said.tail();
    const message = `${(err as Error).message}${tail ? `\nServer output (tail):\n${tail}` : ''}`;
    throw said.portInUse() ? new PortInUseError(message) : new Error(message);
  }
  const uiUrl = options.headless ? undefined : `http://${ip}:${options.uiPort ?? port + 1000}`;
  options.log?.(`Temporal dev server ready at ${address}${uiUrl ? `, Web UI ${uiUrl}` : ''}`);
  return { address, uiUrl, process: child, stop, leave };
}

function devServerArgs(options: DevServerOptions, ip: string, port: number): string[] {
  const args = ['server', 'start-dev', '--ip', ip, '--port', String(port)];
  args.push('--namespace', options.namespace ?? 'default', '--log-level', options.logLevel ?? 'warn');
  if (options.dbFile) {
    args.push('--db-filename', path.resolve(options.dbFile));
    for (const [name, value] of Object.entries({ ...DEFAULT_SQLITE_PRAGMAS, ...options.sqlitePragmas }))
      args.push('--sqlite-pragma', `${name}=${value}`);
  }
  if (options.headless) args.push('--headless');
  else if (options.uiPort !== undefined) args.push('--ui-port', String(options.uiPort));
  for (const [key, value] of Object.entries(options.dynamicConfig ?? {})) {
    args.push('--dynamic-config-value', `${key}=${JSON.stringify(value)}`);
  }
  for (const [key, type] of Object.entries(options.searchAttributes ?? DEFAULT_SEARCH_ATTRIBUTES)) {
    args.push('--search-attribute', `${key}=${type}`);
  }
  return args;
}

/**
 * Polls until a gRPC call for the namespace succeeds: the port opens before the namespace and
 * search attributes are registered, and workers started earlier would fail.
 */
async function waitUntilServing(address: string, namespace: string, exited: Promise<string>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  let lastError = 'port closed';
  const exit = exited.then((how) => {
    throw new Error(`Temporal dev server exited (${how}) before serving ${address}`);
  });
  exit.catch(() => undefined); // settles after a successful start too, when the server stops
  while (Date.now() < deadline) {
    try {
      if (await Promise.race([probe(address, namespace), exit])) return;
    } catch (err) {
      if (!(await isRunning(exited))) throw err;
      lastError = (err as Error).message;
    }
    // Often: a cold `run` waits here for its server, and a closed port is refused at once.
    await Promise.race([new Promise((r) => setTimeout(r, 50)), exit]);
  }
  throw new Error(
    `Temporal dev server did not serve ${address} within ${timeoutMs / 1000} s (last error: ${lastError})`,
  );
}

/** A gRPC connection to a closed port waits out its whole timeout, so TCP is checked first. */
async function probe(address: string, namespace: string): Promise<boolean> {
  if (!(await isServerReachable(address, 1000))) return false;
  // Loaded here, not with this module: a cold `run` starts the server before loading the client SDK.
  const { Connection } = await import('@temporalio/client');
  const connection = await Connection.connect({ address, connectTimeout: 2000 });
  try {
    await connection.withDeadline(Date.now() + 2000, () => connection.workflowService.describeNamespace({ namespace }));
    return true;
  } finally {
    await connection.close();
  }
}

async function isRunning(exited: Promise<string>): Promise<boolean> {
  const notYet = Symbol('running');
  return (await Promise.race([exited, Promise.resolve(notYet)])) === notYet;
}

async function stopProcess(child: ChildProcess, exited: Promise<string>, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
