import { closeClient, connectClient, hasAgentSearchAttributes, hasPollers, type Client } from '../client';
import type { Config } from '../config';
import { FakeGeminiServer } from '../fake-gemini';
import type { Logger } from '../logger';
import type { DevServer } from '../server/dev-server';
import { commandEnvironment } from '../config/env';
import { loadWorkerEnvRedaction } from '../config/workspace';
import { defaultHost } from '../worker/host';
import { recordLeftServer } from './left-server';
import { ensureServer, takeEarlyServer } from './embedded-server';

export { TemporalUnreachableError } from './embedded-server';
export { isLocalHost, splitAddress } from '../client/address';

/** The private queue `run`/`chat` serve a script on: `<task queue>-fake-<pid>-<time>`. */
const SCRIPTED_QUEUE = /-fake-\d+-\d+$/;

import type { FakeResponses } from '../client/prompt-input';
export type { FakeResponses };
export { startBackgroundServer } from './background';

/** A connected client, plus whatever this process had to start to serve it. */
export interface AgentRuntime {
  client: Client;
  taskQueue: string;
  address: string;
  /** This process started the dev server (it stops with the runtime; its database stays). */
  embedded: boolean;
  uiUrl?: string;
  stop(): Promise<void>;
}

export interface RuntimeOptions {
  fakeResponses?: FakeResponses;
  /** Run a worker here: always, never, or when no worker polls the task queue. */
  worker: 'always' | 'never' | 'auto';
  /** Start the dev server when none answers at this home's own address (the default). */
  embed?: boolean;
  /** Start it at the configured local address even if it is not yet this home's own (`server`). */
  claimAddress?: boolean;
  uiEnabled?: boolean;
  /** An embedded server started here is left to its leash at `stop` rather than awaited (see left-server). */
  leaveServer?: boolean;
  /** Serve scripted responses on a queue of this process's own, so no other worker takes the prompt. */
  privateQueueForFake?: boolean;
  /** With `privateQueueForFake`: an earlier private queue to serve instead, if this returns one. */
  queueToAdopt?: (client: Client) => Promise<string | undefined>;
  logger: Logger;
  /** A worker started here: the host it serves (default: this machine's) and its shutdown grace period. */
  workerHost?: { host?: string; shutdownGraceMs?: number };
}

/**
 * Connects to Temporal at the configured address, starting the embedded dev server (SQLite under
 * the agent's home) when nothing answers at a local address, and a worker when one is needed.
 */
export async function openRuntime(config: Config, options: RuntimeOptions): Promise<AgentRuntime> {
  const stops: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    for (const fn of stops.reverse())
      await fn().catch((err) => options.logger.warn({ err: String(err) }, 'shutdown step failed'));
  };
  try {
    const server = await ensureRuntimeServer(config, options);
    if (server) stops.push(() => (options.leaveServer ? leave(server, config.home) : server.stop()));
    const client = await connectClient(config.temporalAddress, config.temporalNamespace, config.temporalConnection);
    stops.push(() => closeClient(client));
    // A prompt's start needs the search-attribute lookup (cached per client): asked now, it overlaps
    // the task-queue check below instead of following it.
    if (options.worker === 'auto') void hasAgentSearchAttributes(client);
    const fake = options.fakeResponses
      ? await FakeGeminiServer.start({
          script: { path: options.fakeResponses.path },
          strict: options.fakeResponses.strict,
          // Serving a scripted prompt's own queue again: its script goes on at the turn it reached.
          resume: !options.privateQueueForFake && SCRIPTED_QUEUE.test(config.taskQueue),
        })
      : undefined;
    if (fake) stops.push(() => fake.close());
    const privateQueue = fake && options.privateQueueForFake;
    const adopted = privateQueue ? await options.queueToAdopt?.(client) : undefined;
    const taskQueue =
      adopted ?? (privateQueue ? `${config.taskQueue}-fake-${process.pid}-${Date.now()}` : config.taskQueue);
    const wantWorker =
      options.worker === 'always' ||
      (options.worker === 'auto' && (!!fake || !!server || !(await hasPollers(client, taskQueue))));
    if (wantWorker) {
      const worker = await startWorker(config, taskQueue, fake?.url, options.workerHost);
      stops.push(worker.stop);
    }
    return { client, taskQueue, address: config.temporalAddress, embedded: !!server, uiUrl: server?.uiUrl, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function leave(server: DevServer, home: string): Promise<void> {
  const pid = await server.leave();
  if (pid !== undefined) recordLeftServer(home, pid);
}

/** The server `run` started before its modules loaded (embedded-server), else the ordinary start. */
async function ensureRuntimeServer(config: Config, options: RuntimeOptions): Promise<DevServer | undefined> {
  const log = (msg: string) => options.logger.info(msg);
  // A runtime that starts the server runs a worker on it: the worker's modules (about a second) load
  // while the server starts up in its own process, not after it.
  const loadWorker = () => void (options.worker !== 'never' && import('../worker'));
  const early = options.claimAddress ? undefined : takeEarlyServer(config.temporalAddress, log);
  if (early && (await early.started)) loadWorker();
  return (await early?.server) ?? ensureServer(config, { ...options, log, onStarting: loadWorker });
}

/**
 * A worker running in this process until `stop`. The worker SDK, the stores and the model SDK are
 * loaded here, not at start-up: `run` with a worker already polling needs none of them.
 */
export async function startWorker(
  config: Config,
  taskQueue: string,
  fakeUrl?: string,
  where: RuntimeOptions['workerHost'] = {},
): Promise<{ stop(): Promise<void> }> {
  // Commands and hooks get the environment without secrets; the spawner that starts them holds none.
  const commandEnv = commandEnvironment(await loadWorkerEnvRedaction(config));
  const { startAgentWorker } = await import('../worker');
  const host = where.host ?? defaultHost();
  return startAgentWorker(config, { taskQueue, commandEnv, fakeUrl, host, shutdownGraceMs: where.shutdownGraceMs });
}
