import * as path from 'node:path';
import { FakeGeminiServer, textResponse } from '../src/fake-gemini';
import { findFreePort } from '../src/server/dev-server';
import { spawnBin, stopBin, type BinProcess } from './processes';
import { makeWorkspace, type BenchEnv, type BenchServer } from './env';
import { sleep, waitFor } from './stats';

export interface StartLatencyResult {
  /** `durable-agent --version`: Node start and module loading alone. */
  processOnlyMs: number[];
  /** Server and a `durable-agent worker` already running. */
  warmMs: number[];
  /** Server running, no worker: `run` starts one in its own process. */
  warmNoWorkerMs: number[];
  /** Nothing running: `run` starts the embedded dev server (existing database) and a worker. */
  coldMs: number[];
}

/** Process start of `durable-agent run` to the fake Gemini server's first request, per scenario. */
export async function measureStartLatency(env: BenchEnv, server: BenchServer, runs: number): Promise<StartLatencyResult> {
  const fake = await FakeGeminiServer.start({ script: [] });
  const dir = path.join(env.tmp, 'start');
  const workspace = makeWorkspace(path.join(dir, 'ws'), 1, 100);
  const base = { GOOGLE_GEMINI_BASE_URL: fake.url };
  try {
    const processOnlyMs: number[] = [];
    for (let i = 0; i < runs; i++) {
      const proc = spawnBin(env.binPath, ['--version'], base);
      await proc.exited;
      processOnlyMs.push(Date.now() - proc.startedAt);
    }
    const queue = server.taskQueue('warm');
    const warmEnv = { ...base, TEMPORAL_ADDRESS: server.address, DURABLE_AGENT_TASK_QUEUE: queue, DURABLE_AGENT_HOME: path.join(dir, 'home-warm') };
    const worker = spawnBin(env.binPath, ['worker'], warmEnv);
    try {
      await waitForPoller(server, queue, worker);
      const warmMs = await timeRuns(env, fake, workspace, warmEnv, runs + 1);
      const noWorkerEnv = () => ({ ...warmEnv, DURABLE_AGENT_TASK_QUEUE: server.taskQueue('warm-alone') });
      const warmNoWorkerMs = await timeRuns(env, fake, workspace, noWorkerEnv, runs + 1);
      const home = path.join(dir, 'home-cold');
      const coldEnv = async () => ({ ...base, TEMPORAL_ADDRESS: `127.0.0.1:${await findFreePort()}`, DURABLE_AGENT_HOME: home });
      const coldMs = await timeRuns(env, fake, workspace, coldEnv, Math.max(2, runs - 1) + 1);
      // The first run of each scenario warms the OS caches (and creates the cold database): dropped.
      return { processOnlyMs, warmMs: warmMs.slice(1), warmNoWorkerMs: warmNoWorkerMs.slice(1), coldMs: coldMs.slice(1) };
    } finally {
      await stopBin(worker);
    }
  } finally {
    await fake.close();
  }
}

type EnvSource = Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);

async function timeRuns(env: BenchEnv, fake: FakeGeminiServer, workspace: string, source: EnvSource, runs: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const vars = typeof source === 'function' ? await source() : source;
    fake.load([textResponse('Hello.')]);
    const proc = spawnBin(env.binPath, ['run', 'Say hello.', '-o', 'json', '--approval-mode', 'yolo', '-m', 'gemini-bench', '-w', workspace], vars);
    const code = await proc.exited;
    if (code !== 0 || fake.requests.length === 0) throw new Error(`durable-agent run exited ${code}:\n${proc.output()}\n${fake.report()}`);
    out.push(fake.requests[0].time.getTime() - proc.startedAt);
    await sleep(200); // let the embedded server's port and database settle
  }
  return out;
}

export async function waitForPoller(server: BenchServer, taskQueue: string, worker: BinProcess): Promise<void> {
  await waitFor(async () => {
    if (worker.child.exitCode !== null) throw new Error(`worker exited:\n${worker.output()}`);
    const r = await server.client.workflowService.describeTaskQueue({ namespace: 'default', taskQueue: { name: taskQueue, kind: 1 }, taskQueueType: 1 });
    return (r.pollers ?? []).length > 0 ? true : undefined;
  }, 60_000, `a worker polling ${taskQueue}`);
}

