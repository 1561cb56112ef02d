import * as path from 'node:path';
import { startPrompt } from '../src/client';
import type { PromptResult } from '../src/workflows/api';
import { makeWorkspace, type BenchEnv, type BenchServer } from './env';
import { LoopModel, loopPrompt } from './loop-model';
import { cpuSecondsOf, peakRssMiB, spawnBin, stopBin } from './processes';
import { benchInput } from './rig';
import { waitForPoller } from './start-latency';

export interface ConcurrencyResult {
  prompts: number;
  turnsEach: number;
  seconds: number;
  turnsPerSecond: number;
  workerPeakRssMiB?: number;
  failures: number;
  failureSamples: string[];
  /** CPU seconds spent during the run by the dev server, the worker process and this process (client + fake model). */
  cpuSeconds: { server?: number; worker?: number; bench: number };
}

/** `prompts` prompts of `turnsEach` turns, all started at once against one `durable-agent worker` process. */
export async function measureConcurrency(
  env: BenchEnv,
  server: BenchServer,
  prompts: number,
  turnsEach: number,
): Promise<ConcurrencyResult> {
  const model = await LoopModel.start();
  const dir = path.join(env.tmp, 'concurrency');
  const workspace = makeWorkspace(path.join(dir, 'ws'), turnsEach, 1024);
  const taskQueue = server.taskQueue('concurrency');
  const worker = spawnBin(env.binPath, ['worker'], {
    TEMPORAL_ADDRESS: server.address,
    DURABLE_AGENT_TASK_QUEUE: taskQueue,
    GOOGLE_GEMINI_BASE_URL: model.url,
    DURABLE_AGENT_HOME: path.join(dir, 'home'),
  });
  try {
    await waitForPoller(server, taskQueue, worker);
    const cpuBefore = {
      server: cpuSecondsOf(server.server.process.pid),
      worker: cpuSecondsOf(worker.child.pid),
      bench: process.cpuUsage(),
    };
    const started = performance.now();
    const outcomes = await Promise.all(
      Array.from({ length: prompts }, async (_, i) => {
        try {
          const input = {
            ...benchInput(workspace, turnsEach, loopPrompt(`c${i}`, turnsEach)),
            modelRetryInitialMs: 1000,
          };
          const handle = await startPrompt(server.client, input, {
            taskQueue,
            workflowId: `bench-concurrency-${Date.now()}-${i}`,
          });
          const result: PromptResult = await handle.result();
          return result.terminateReason === 'completed' && result.turns === turnsEach
            ? undefined
            : `prompt ${i}: ${result.terminateReason} after ${result.turns} turns`;
        } catch (err) {
          return `prompt ${i}: ${(err as Error).message}`;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const benchCpu = process.cpuUsage(cpuBefore.bench);
    const delta = (after: number | undefined, before: number | undefined) =>
      after === undefined || before === undefined ? undefined : after - before;
    const cpuSeconds = {
      server: delta(cpuSecondsOf(server.server.process.pid), cpuBefore.server),
      worker: delta(cpuSecondsOf(worker.child.pid), cpuBefore.worker),
      bench: (benchCpu.user + benchCpu.system) / 1e6,
    };
    const failed = outcomes.filter((o): o is string => o !== undefined);
    return {
      prompts,
      turnsEach,
      seconds,
      turnsPerSecond: (prompts * turnsEach) / seconds,
      workerPeakRssMiB: peakRssMiB(worker.child.pid),
      failures: failed.length,
      failureSamples: failed.slice(0, 3),
      cpuSeconds,
    };
  } finally {
    await stopBin(worker);
    await model.close();
  }
}
