/**
 * The spare process (docs/decisions.md, "Warm start"): started by a `worker` or `server`, it loads
 * the CLI's modules and opens a Temporal connection ahead of time, then waits on `<home>/spare.sock`
 * for ONE command from bin/spare-client.js. Once it accepts, it stops listening, becomes that
 * command's process (cwd, environment, argv, standard streams and signals forwarded over the
 * socket) and exits with it; its owner starts the next spare.
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import { hasPollers, preopenClient, type Client } from '../client';
import { loadConfig } from '../config';
import { main } from './main';
import { serveOneCommand } from './spare-serve';
import { spareSocketPath } from './spare-owner';

/** Entry point of `node dist/cli/spare.js`, with an IPC channel to its owner. */
export function startSpare(): void {
  const config = loadConfig();
  // An idle spare never outlives its owner; a busy one is its command's process and ends with it.
  process.on('disconnect', () => process.exit(0));
  const socketPath = spareSocketPath(config.home);
  // The first RPC warms the gRPC method path and its protobuf types; nothing of its answer is kept.
  const warm = (client: Client) => hasPollers(client, config.taskQueue);
  preopenClient(config.temporalAddress, config.temporalNamespace, config.temporalConnection, warm);
  fs.mkdirSync(config.home, { recursive: true, mode: 0o700 });
  fs.rmSync(socketPath, { force: true });
  const server = net.createServer({ allowHalfOpen: false });
  const umask = process.umask(0o177); // the socket file is the owner's alone (0600) from its creation
  server.listen(socketPath, () => process.send?.({ t: 'ready' }));
  process.umask(umask);
  server.on('error', (err) => {
    process.stderr.write(`durable-agent: the spare process cannot listen on ${socketPath}: ${err.message}\n`);
    process.exit(1);
  });
  server.once('connection', (socket) => {
    server.close();
    fs.rmSync(socketPath, { force: true });
    process.removeAllListeners('disconnect');
    process.send?.({ t: 'accepted' }, () => process.disconnect());
    serveOneCommand(socket, main);
  });
  process.on('exit', () => {
    if (server.listening) fs.rmSync(socketPath, { force: true });
  });
}

if (require.main === module) startSpare();
