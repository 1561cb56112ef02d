import * as path from 'node:path';
import { startPrompt } from '../src/client';
import type { PromptResult } from '../src/workflows/messages';
import { makeWorkspace, type BenchEnv, type BenchServer } from './env';
import { LoopModel, loopPrompt } from './loop-model';
import { peakRssMiB, spawnBin, stopBin } from './processes';
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
}

/** `prompts` prompts of `turnsEach` turns, all started at once against one `durable-agent worker` process. */
export async function measureConcurrency(env: BenchEnv, server: BenchServer, prompts: number, turnsEach: number): Promise<ConcurrencyResult> {
  const model = await LoopModel.start();
  const dir = path.join(env.tmp, 'concurrency');
  const workspace = makeWorkspace(path.join(dir, 'ws'), turnsEach, 1024);
  const taskQueue = server.taskQueue('concurrency');
  const worker = spawnBin(env.binPath, ['worker'], { TEMPORAL_ADDRESS: server.address, DURABLE_AGENT_TASK_QUEUE: taskQueue, GOOGLE_GEMINI_BASE_URL: model.url, DURABLE_AGENT_HOME: path.join(dir, 'home') });
  try {
    await waitForPoller(server, taskQueue, worker);
    const started = performance.now();
    const outcomes = await Promise.all(
      Array.from({ length: prompts }, async (_, i) => {
        try {
          const input = { ...benchInput(workspace, turnsEach, loopPrompt(`c${i}`, turnsEach)), modelRetryInitialMs: 1000 };
          const handle = await startPrompt(server.client, input, { taskQueue, workflowId: `bench-concurrency-${Date.now()}-${i}` });
          const result: PromptResult = await handle.result();
          return result.terminateReason === 'completed' && result.turns === turnsEach ? undefined : `prompt ${i}: ${result.terminateReason} after ${result.turns} turns`;
        } catch (err) {
          return `prompt ${i}: ${(err as Error).message}`;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const failed = outcomes.filter((o): o is string => o !== undefined);
    return {
      prompts,
      turnsEach,
      seconds,
      turnsPerSecond: (prompts * turnsEach) / seconds,
      workerPeakRssMiB: peakRssMiB(worker.child.pid),
      failures: failed.length,
      failureSamples: failed.slice(0, 3),
    };
  } finally {
    await stopBin(worker);
    await model.close();
  }
}
