import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { startDevServer, type DevServer, type DevServerOptions } from '../src/server/dev-server';
import { ensureTemporalCli, projectRoot } from '../src/server/temporal-cli';

/** What every benchmark gets: the Temporal CLI the app would use, a scratch directory, the built bundle. */
export interface BenchEnv {
  root: string;
  cliPath: string;
  tmp: string;
  workflowBundlePath: string;
  binPath: string;
  quick: boolean;
  log(msg: string): void;
}

/** A running dev server with a client and a worker connection to it. */
export interface BenchServer {
  server: DevServer;
  address: string;
  client: Client;
  native: NativeConnection;
  taskQueue(prefix: string): string;
  close(): Promise<void>;
}

export async function openBenchEnv(quick: boolean): Promise<BenchEnv> {
  const root = projectRoot(__dirname);
  const log = (msg: string) => process.stderr.write(`[bench] ${msg}\n`);
  // Provisioned as `run` does it: TEMPORAL_CLI_PATH, the project's .tools, PATH, else a one-time install.
  const cliPath = await ensureTemporalCli({
    projectRoot: root,
    explicitPath: process.env.TEMPORAL_CLI_PATH || undefined,
    searchPath: process.env.PATH,
    env: process.env,
    log,
  });
  const workflowBundlePath = path.join(root, 'dist', 'workflow-bundle.js');
  if (!fs.existsSync(workflowBundlePath)) throw new Error(`${workflowBundlePath} is missing: run npm run build`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'durable-agent-bench-'));
  return { root, cliPath, tmp, workflowBundlePath, binPath: path.join(root, 'bin', 'durable-agent.js'), quick, log };
}

/** The dev server as `run` embeds it (SQLite file, same search attributes), headless. */
export async function openBenchServer(
  env: BenchEnv,
  name: string,
  extra: Partial<DevServerOptions> = {},
): Promise<BenchServer> {
  const server = await startDevServer({
    cliPath: env.cliPath,
    dbFile: path.join(env.tmp, name, 'dev.db'),
    headless: true,
    ...extra,
  });
  const connection = await Connection.connect({ address: server.address });
  const native = await NativeConnection.connect({ address: server.address });
  return {
    server,
    address: server.address,
    client: new Client({ connection, namespace: 'default' }),
    native,
    taskQueue: (prefix) => `${prefix}-${randomUUID().slice(0, 8)}`,
    async close() {
      await connection.close();
      await native.close();
      await server.stop();
    },
  };
}

export interface MachineInfo {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  temporalCli: string;
  platform: string;
}

export async function machineInfo(env: BenchEnv): Promise<MachineInfo> {
  const version = await new Promise<string>((resolve) =>
    execFile(env.cliPath, ['--version'], (err, stdout) => resolve(err ? 'unknown' : stdout.trim())),
  );
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    temporalCli: version.replace(/^temporal version /, ''),
    platform: `${os.platform()} ${os.release()}`,
  };
}

/** A workspace with f1.txt … fN.txt of `bytes` bytes each (lines of 64 characters), for read_file. */
export function makeWorkspace(dir: string, files: number, bytes: number): string {
  fs.mkdirSync(dir, { recursive: true });
  const line = `${'x'.repeat(63)}\n`;
  const body = line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
  for (let i = 1; i <= files; i++) fs.writeFileSync(path.join(dir, `f${i}.txt`), body);
  return fs.realpathSync(dir);
}
