import { once } from 'node:events';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { getTestEnv, closeTestEnv, type TestEnv } from '../../test/helpers/temporal-env';
import { eventually } from '../../test/helpers/cli';
import {
  DEFAULT_SEARCH_ATTRIBUTES,
  findFreePort,
  isServerReachable,
  startDevServer,
  type DevServer,
} from './dev-server';

let env: TestEnv;
const servers: DevServer[] = [];

beforeAll(async () => {
  env = await getTestEnv();
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await closeTestEnv();
});

async function start(dbFile: string): Promise<DevServer> {
  const server = await startDevServer({
    cliPath: env.cliPath,
    dbFile,
    headless: true,
    dynamicConfig: { 'limit.historyCount.suggestContinueAsNew': 50 },
  });
  servers.push(server);
  return server;
}

async function withClient<T>(address: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const connection = await Connection.connect({ address });
  try {
    return await fn(new Client({ connection }));
  } finally {
    await connection.close();
  }
}

describe('startDevServer', () => {
  it('keeps workflows in its SQLite file across a restart', async () => {
    const dbFile = path.join(env.tmpDir, 'dev-server-test', 'nested', 'temporal.db');
    const workflowId = `persisted-${Date.now()}`;
    const first = await start(dbFile);
    expect(fs.existsSync(dbFile)).toBe(true);
    await withClient(first.address, async (client) => {
      // No worker polls this queue: the workflow just stays running, which is all we need to find.
      await client.workflow.start('noSuchWorkflow', { workflowId, taskQueue: env.uniqueTaskQueue('no-worker') });
    });
    await first.stop();
    expect(first.process.exitCode ?? first.process.signalCode).not.toBeNull();
    expect(await isServerReachable(first.address)).toBe(false);

    const second = await start(dbFile);
    const described = await withClient(second.address, (client) => client.workflow.getHandle(workflowId).describe());
    expect(described.status.name).toBe('RUNNING');
    expect(described.type).toBe('noSuchWorkflow');
    await second.stop();
  });

  it('runs its SQLite file in WAL mode and keeps what it committed through a SIGKILL', async () => {
    const dbFile = path.join(env.tmpDir, 'dev-server-wal-test', 'temporal.db');
    const workflowId = `wal-${Date.now()}`;
    const first = await start(dbFile);
    await withClient(first.address, (client) =>
      client.workflow.start('noSuchWorkflow', { workflowId, taskQueue: env.uniqueTaskQueue('no-worker') }),
    );
    // Bytes 18-19 of a SQLite header are the file format versions: 2 means write-ahead log.
    expect([...fs.readFileSync(dbFile).subarray(18, 20)]).toEqual([2, 2]);
    first.process.kill('SIGKILL');
    await first.stop();

    const second = await start(dbFile);
    const described = await withClient(second.address, (client) => client.workflow.getHandle(workflowId).describe());
    expect(described.status.name).toBe('RUNNING');
    await second.stop();
  });

  it('starts again on its port when the port is released a moment after a kill', async () => {
    const dbFile = path.join(env.tmpDir, 'dev-server-port-test', 'temporal.db');
    const workflowId = `port-${Date.now()}`;
    const first = await start(dbFile);
    await withClient(first.address, (client) =>
      client.workflow.start('noSuchWorkflow', { workflowId, taskQueue: env.uniqueTaskQueue('no-worker') }),
    );
    first.process.kill('SIGKILL');
    await first.stop();
    // Another process holds the killed server's port for a moment, as a connection or a dying server can.
    const [ip, port] = [first.address.split(':')[0], Number(first.address.split(':')[1])];
    const holder = net.createServer((socket) => socket.destroy()).listen(port, ip);
    await once(holder, 'listening');
    const said: string[] = [];
    const second = startDevServer({ cliPath: env.cliPath, dbFile, port, headless: true, log: (m) => said.push(m) });
    await eventually(() => said.some((m) => /found a port in use/.test(m)), 60_000, 'the notice of a port in use');
    holder.close();
    const server = await second;
    servers.push(server);
    expect(server.address).toBe(first.address);
    const described = await withClient(server.address, (client) => client.workflow.getHandle(workflowId).describe());
    expect(described.status.name).toBe('RUNNING');
    await server.stop();
  });

  it('tries a start that failed on a port in use once more, then reports the output', async () => {
    const calls = path.join(env.tmpDir, 'port-in-use-calls');
    const fakeCli = path.join(env.tmpDir, 'port-in-use-temporal');
    const script = `#!/bin/sh\necho call >> "${calls}"\necho "listen tcp: bind: address already in use" >&2\nexit 2\n`;
    fs.writeFileSync(fakeCli, script, { mode: 0o755 });
    await expect(startDevServer({ cliPath: fakeCli, headless: true, log: () => undefined })).rejects.toThrow(
      /exited \(code 2\) before serving[\s\S]*address already in use/,
    );
    expect(fs.readFileSync(calls, 'utf8').trim().split('\n')).toHaveLength(2);
  });

  it('registers the default search attributes', async () => {
    const attributes = await env.client.connection.operatorService.listSearchAttributes({ namespace: 'default' });
    for (const name of Object.keys(DEFAULT_SEARCH_ATTRIBUTES)) {
      expect(Object.keys(attributes.customAttributes)).toContain(name);
    }
  });

  it('reports the server output when the server exits early', async () => {
    const fakeCli = path.join(env.tmpDir, 'failing-temporal');
    fs.writeFileSync(fakeCli, '#!/bin/sh\necho "unknown flag: --bogus" >&2\nexit 1\n', { mode: 0o755 });
    await expect(startDevServer({ cliPath: fakeCli, headless: true })).rejects.toThrow(
      /exited \(code 1\) before serving[\s\S]*unknown flag: --bogus/,
    );
  });

  it('reports a missing binary', async () => {
    await expect(startDevServer({ cliPath: path.join(env.tmpDir, 'nope') })).rejects.toThrow(/ENOENT/);
  });
});

describe('isServerReachable', () => {
  it('tells a serving address from a closed port', async () => {
    expect(await isServerReachable(env.address)).toBe(true);
    expect(await isServerReachable(`127.0.0.1:${await findFreePort()}`, 500)).toBe(false);
  });
});
