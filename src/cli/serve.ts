import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Config } from '../config';
import { hostTaskQueue } from '../core/host-routing';
import { defaultHost } from './default-host';
import { geminiApiKey } from '../model/api-key';
import type { Logger } from '../logger';
import type { Io } from './output';
import { keepSpare, spareEnabled } from './spare-owner';
import { openRuntime, type FakeResponses, type RuntimeOptions } from '../runtime';

/**
 * `durable-agent server` (embedded dev server + worker) and `durable-agent worker` (worker only),
 * in the foreground until SIGINT, SIGTERM or SIGHUP. The server's SQLite database keeps every prompt.
 * `<home>/server.pid` (or `worker.pid`) names the process while it runs, for scripts that stop it.
 */
export async function serveCommand(
  config: Config,
  kind: 'server' | 'worker',
  fake: FakeResponses | undefined,
  io: Io,
  logger: Logger,
  workerHost: RuntimeOptions['workerHost'] = {},
  spare = true,
): Promise<number> {
  if (!fake) geminiApiKey(config);
  const runtime = await openRuntime(config, {
    worker: 'always',
    embed: kind === 'server',
    claimAddress: kind === 'server',
    fakeResponses: fake,
    uiEnabled: true,
    logger,
    workerHost,
  });
  const where = runtime.embedded
    ? `embedded Temporal dev server at ${runtime.address}`
    : `Temporal at ${runtime.address}`;
  // Listening before the ready line: a signal sent on seeing it must not find Node's default (die at once).
  const stopAsked = new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
    // A closed terminal: without a handler Node dies at once and leaves the dev server running.
    process.once('SIGHUP', resolve);
  });
  io.stderr.write(
    `${where}${runtime.uiUrl ? `, Web UI ${runtime.uiUrl}` : ''}; worker on task queue ` +
      `${runtime.taskQueue} and host queue ${hostTaskQueue(runtime.taskQueue, workerHost.host ?? defaultHost())}. ` +
      `Ctrl-C stops.\n`,
  );
  const pidFile = path.join(config.home, `${kind}.pid`);
  fs.mkdirSync(config.home, { recursive: true, mode: 0o700 });
  fs.writeFileSync(pidFile, `${process.pid}\n`);
  const stopSpare = spareEnabled(config, spare) ? keepSpare(config.home, logger) : () => undefined;
  await stopAsked;
  io.stderr.write('stopping…\n');
  fs.rmSync(pidFile, { force: true });
  stopSpare();
  await runtime.stop();
  return 0;
}
