import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Config } from '../config';
import { inheritedEnvironment } from '../config/env';
import type { Logger } from '../logger';
import { isServerReachable } from '../server/dev-server';
import { awaitLeftServer } from './left-server';
import { InputError, isLocalHost, splitAddress, type FakeResponses } from '../client';
import { TemporalUnreachableError } from './embedded-server';
import { cannotReachMessage, isOwnAddress } from './own-server';

const START_TIMEOUT_MS = 120_000;

/**
 * For `run --detach`: makes sure a server and a worker outlive this process. With nothing answering,
 * `durable-agent server` is started in the background (its output goes to `<home>/server.log`).
 */
export async function startBackgroundServer(
  config: Config,
  fake: FakeResponses | undefined,
  logger: Logger,
): Promise<void> {
  await awaitLeftServer(config.home);
  if (await isServerReachable(config.temporalAddress, 1000)) {
    if (fake)
      throw new InputError(
        '--fake-responses with --detach needs no running server: the background server would not serve the ' +
          'script. Stop the server or drop --detach.',
      );
    return;
  }
  const local = isLocalHost(splitAddress(config.temporalAddress).host);
  if (!local || !isOwnAddress(config))
    throw new TemporalUnreachableError(cannotReachMessage(config.temporalAddress, local));
  fs.mkdirSync(config.home, { recursive: true, mode: 0o700 });
  const logFile = path.join(config.home, 'server.log');
  fs.rmSync(path.join(config.home, 'server.pid'), { force: true });
  const out = fs.openSync(logFile, 'a', 0o600);
  const args = [path.resolve(__dirname, '..', '..', 'bin', 'durable-agent.js'), 'server'];
  if (fake) args.push(fake.strict ? '--fake-responses' : '--fake-responses-non-strict', fake.path);
  const child = spawn(process.execPath, args, {
    detached: true,
    stdio: ['ignore', out, out],
    env: inheritedEnvironment(),
  });
  child.unref();
  fs.closeSync(out);
  logger.info({ pid: child.pid, logFile }, 'started a background server');
  const deadline = Date.now() + START_TIMEOUT_MS;
  // The pid file appears once the server answers and its worker polls: then the prompt can start.
  const pidFile = path.join(config.home, 'server.pid');
  while (!fs.existsSync(pidFile) || !(await isServerReachable(config.temporalAddress, 1000))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`the background server did not start; see ${logFile}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
