import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@temporalio/client';
import type { Duration } from '@temporalio/common';
import { NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { createActivities } from '../activities';
import { failDeadWorkersAttempts } from '../client/dead-worker-attempts';
import { McpPool } from '../activities/mcp/pool';
import { createProcessRunner, type ProcessRunner } from '../activities/spawner/runner';
import type { Config } from '../config';
import { otelEnv, type OtelEnv } from '../config/env';
import { installTemporalRuntime } from '../logger';
import { createGenAI } from '../model/client';
import { openStores } from '../store/open';
import { costTotalSinks } from './cost-total';
import { withDeployment } from './deployment';
import { boundWorkflowHeap } from './heap';
import { TRACED_BUNDLE, tracingFromEnv, type WorkerTracing } from './tracing';
import type { ModelSeam } from '../model/seam';
import type { TranscriptStore } from '../store/types';
import type { ToolJournal } from '../store/journal';
import type { LiveStream } from '../store/live-stream';
import { defaultHost, joinHostWorker, watchForOtherHosts } from './host';
import { hostTaskQueue, workerIdentity } from '../core/host-routing';

export interface AgentWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  models: ModelSeam;
  store: TranscriptStore;
  journal?: ToolJournal;
  /** Where model output is published as it streams (none: no live preview). */
  live?: LiveStream;
  /** A prebuilt workflow bundle; defaults to the one `npm run build` writes, else bundling from source. */
  workflowBundlePath?: string;
  shutdownGraceTime?: Duration;
  /**
   * Temporal's stickyQueueScheduleToStartTimeout (ours 1 s, the SDK's 10 s): how long a crashed worker holds its
   * workflows.
   */
  stickyTimeout?: Duration;
  /** Time `grep_search` may spend matching one file (default 4 s). */
  grepTimeoutMs?: number;
  /** The whole environment of shell commands and hooks (default: the worker's, without secrets). */
  commandEnv?: NodeJS.ProcessEnv;
  /** Starts shell commands and hooks (default: the process's shared spawner). */
  runner?: ProcessRunner;
  /** durable-agent's home: the user-level `GEMINI.md` that prompts load and `save_memory` writes. */
  home?: string;
  /** The host it serves: the worker also polls `<taskQueue>@<host>` (worker/host.ts). Default: this machine's. */
  host?: string;
  /** The workflow thread's heap limit in MiB (default DEFAULT_WORKFLOW_HEAP_MIB); the cache is sized from it. */
  workflowHeapMiB?: number;
  /** The `OTEL_` variables that turn tracing on (default: this process's). */
  otel?: OtelEnv;
}

/** Wires a worker: connection, activities from real dependencies, the workflow bundle, the task queue. */
export async function createAgentWorker(options: AgentWorkerOptions): Promise<Worker> {
  const mcpPool = new McpPool({ env: options.commandEnv, runner: options.runner });
  // Every worker serves a host (default: this machine), also those built here directly (tests).
  const host = options.host ?? defaultHost();
  const identity = { identity: workerIdentity(process.pid, host) };
  const activities = createActivities({
    models: options.models,
    store: options.store,
    journal: options.journal,
    live: options.live,
    grepTimeoutMs: options.grepTimeoutMs,
    commandEnv: options.commandEnv,
    runner: options.runner,
    home: options.home,
    mcpPool,
  });
  const shutdownGraceTime = options.shutdownGraceTime ?? '5 seconds';
  // OTEL_ variables turn on tracing; without them the worker has no interceptors and only the cost sink.
  const tracing = await tracingFromEnv(options.otel ?? otelEnv());
  // Made beside the main worker, not after it: a restarted worker's first task is often a dead worker's
  // interrupted tool call, which waits for the host queue's poller. Awaited below, after the main worker.
  const hostWorker = createHostWorker(options, host, activities, shutdownGraceTime, tracing);
  hostWorker.catch(() => undefined);
  const worker = await Worker.create({
    ...boundWorkflowHeap(options.workflowHeapMiB),
    connection: options.connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    ...identity,
    activities,
    ...withDeployment(workflowSource(options.workflowBundlePath, tracing !== undefined)),
    // The bundles carry the same converter (scripts/bundle-workflows.js): an undecodable signal is a warning.
    dataConverter: { payloadConverterPath: require.resolve('../payload-converter') },
    ...(tracing && { interceptors: tracing.interceptors }),
    sinks: { ...tracing?.sinks, ...costTotalSinks() },
    shutdownGraceTime,
    // A worker killed without saying goodbye leaves its cached prompts' next tasks on its sticky
    // queue until this expires (SDK default 10 s); only then does a new worker get them.
    stickyQueueScheduleToStartTimeout: '1 second',
    shutdownForceTime: '20 seconds',
    ...(options.stickyTimeout === undefined ? {} : { stickyQueueScheduleToStartTimeout: options.stickyTimeout }),
  });
  joinHostWorker(worker, await hostWorker);
  // MCP connections (stdio servers are child processes) live as long as the worker runs, whoever runs it;
  // the spans still batched are sent once both workers have stopped.
  const run = worker.run.bind(worker);
  worker.run = () => run().finally(() => Promise.all([mcpPool.close(), tracing?.shutdown()]));
  return worker;
}

/** The activities-only worker on `<taskQueue>@<host>` (worker/host.ts joins it to the main one). */
function createHostWorker(
  options: AgentWorkerOptions,
  host: string,
  activities: object,
  shutdownGraceTime: Duration,
  tracing?: WorkerTracing,
) {
  // Versioned like the main worker, so a pinned prompt's tools run on its own build's workers too.
  return Worker.create(
    withDeployment({
      connection: options.connection,
      namespace: options.namespace,
      taskQueue: hostTaskQueue(options.taskQueue, host),
      identity: workerIdentity(process.pid, host),
      activities,
      // Tools and hooks run here: their spans need the tracing activity interceptors too.
      ...(tracing && { interceptors: { activity: tracing.interceptors.activity } }),
      shutdownGraceTime,
      shutdownForceTime: '20 seconds',
    }),
  );
}

/**
 * The workflow code a worker runs: the prebuilt bundle (the one with the tracing interceptors when
 * `traced`), with a short build id naming it. Every workflow and activity task event of history
 * records the worker's build id; the SDK's default
 * (`@temporalio/worker@<version>+<64 hex digits>`, ~110 bytes) cost ~500 bytes per model turn.
 * Without a prebuilt bundle the SDK bundles from source and names the build itself.
 */
export function workflowSource(
  explicit?: string,
  traced = false,
): { workflowBundle: { code: string }; buildId: string } | { workflowsPath: string } {
  const prebuilt =
    explicit ?? path.resolve(__dirname, '..', '..', 'dist', traced ? TRACED_BUNDLE : 'workflow-bundle.js');
  if (!fs.existsSync(prebuilt)) return { workflowsPath: require.resolve('../workflows') };
  const code = fs.readFileSync(prebuilt, 'utf8');
  return {
    workflowBundle: { code },
    buildId: `durable-agent+${createHash('sha256').update(code).digest('hex').slice(0, 16)}`,
  };
}

/** A worker's connection; the process's Temporal runtime (with the CLI's logger) is installed first. */
export async function connectWorker(address: string, connectionOptions: object = {}): Promise<NativeConnection> {
  await installTemporalRuntime();
  return NativeConnection.connect({ ...connectionOptions, address });
}

/** A worker running in this process, and how to stop it with everything it opened. */
export interface RunningWorker {
  worker: Worker;
  stop(): Promise<void>;
}

/**
 * Runs the agent's worker on `taskQueue` until `stop`: the configured stores and model client, a
 * spawner for commands and hooks, which get `commandEnv` (the caller strips the secrets), and the
 * model endpoint `fakeUrl` instead of Gemini's when set (scripted responses).
 */
export async function startAgentWorker(
  config: Config,
  options: {
    taskQueue: string;
    commandEnv: NodeJS.ProcessEnv;
    fakeUrl?: string;
    host?: string;
    shutdownGraceMs?: number;
  },
): Promise<RunningWorker> {
  const runner = createProcessRunner();
  const stores = await openStores(config);
  const connection = await connectWorker(config.temporalAddress, config.temporalConnection);
  // While the worker loads, fail the attempts a killed worker of this host left running: retried at
  // once rather than after their heartbeat timeout.
  const sweep = failDeadWorkersAttempts(new Client({ connection, namespace: config.temporalNamespace })).catch(() => 0);
  const worker = await createAgentWorker({
    connection,
    namespace: config.temporalNamespace,
    taskQueue: options.taskQueue,
    models: createGenAI(config, options.fakeUrl).models,
    store: stores.store,
    journal: stores.journal,
    live: stores.live,
    ...fromConfig(config),
    commandEnv: options.commandEnv,
    runner,
    host: options.host,
    ...(options.shutdownGraceMs === undefined ? {} : { shutdownGraceTime: options.shutdownGraceMs }),
  });
  runner.start();
  const running = worker.run();
  const stopWatch = fileStoreWatch(config, connection, options);
  const stop = async () => {
    stopWatch();
    if (worker.getState() === 'RUNNING') worker.shutdown();
    await running;
    await sweep;
    await connection.close();
    await stores.close();
    runner.close();
  };
  return { worker, stop };
}

/** The worker's settings that come from the environment. */
function fromConfig(config: Config): Partial<AgentWorkerOptions> {
  const { stickyTimeoutMs: stickyTimeout, grepTimeoutMs, home, workflowHeapMiB, otel } = config;
  return { stickyTimeout, grepTimeoutMs, home, workflowHeapMiB, otel };
}

/** With the file store, the warning when other hosts serve the same queue (worker/host.ts). */
function fileStoreWatch(config: Config, connection: NativeConnection, options: { taskQueue: string; host?: string }) {
  if (config.storeUrl || !options.host) return () => undefined;
  const { taskQueue, host } = options;
  const warn = (message: string) => Runtime.instance().logger.warn(message);
  return watchForOtherHosts({ connection, namespace: config.temporalNamespace, taskQueue, host }, warn);
}

/**
 * Runs `fn` while a query-only worker polls `taskQueue`: queries need a worker, and a closed
 * prompt often has none left. It runs no activities, and a closed workflow gets no new tasks but
 * queries, so it can never act for the prompt.
 */
export async function withQueryWorker<T>(
  config: Pick<Config, 'temporalAddress' | 'temporalConnection' | 'temporalNamespace'>,
  taskQueue: string,
  fn: () => Promise<T>,
): Promise<T> {
  const connection = await connectWorker(config.temporalAddress, config.temporalConnection);
  try {
    const worker = await Worker.create({
      connection,
      namespace: config.temporalNamespace,
      taskQueue,
      activities: {},
      ...workflowSource(),
      shutdownGraceTime: '1 second',
    });
    return await worker.runUntil(fn());
  } finally {
    await connection.close();
  }
}
