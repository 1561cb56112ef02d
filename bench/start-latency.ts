import * as fs from 'node:fs';
import * as path from 'node:path';
import { FakeGeminiServer, textResponse } from '../src/fake-gemini';
import { findFreePort } from '../src/server/dev-server';
import { spareEnabled, spareSocketPath } from '../src/cli/spare-owner';
import { loadConfig } from '../src/config';
import { recordOwnAddress } from '../src/runtime/own-server';
import { spawnBin, stopBin, type BinProcess } from './processes';
import { makeWorkspace, type BenchEnv, type BenchServer } from './env';
import { median, sleep, waitFor } from './stats';

export interface StartLatencyResult {
  /** `durable-agent --help`: Node start and loading the CLI's modules (`--version` loads none). */
  processOnlyMs: number[];
  /** Server and a `durable-agent worker` already running. */
  warmMs: number[];
  /** Server running, no worker: `run` starts one in its own process. */
  warmNoWorkerMs: number[];
  /** Nothing running: `run` starts the embedded dev server (existing database) and a worker. */
  coldMs: number[];
  /** Where the time goes, medians per scenario (from the server's event times). */
  phases: Record<'warm' | 'warmNoWorker' | 'cold', Phases>;
}

/** Process start → workflow started (boot, connect, start call) → model activity started → model request. */
export interface Phases {
  toWorkflowStartMs: number;
  toActivityStartMs: number;
  toRequestMs: number;
}

interface Sample {
  totalMs: number;
  phases: Phases;
}

/** Process start of `durable-agent run` to the fake Gemini server's first request, per scenario. */
export async function measureStartLatency(
  env: BenchEnv,
  server: BenchServer,
  runs: number,
): Promise<StartLatencyResult> {
  const fake = await FakeGeminiServer.start({ script: [] });
  const dir = path.join(env.tmp, 'start');
  const workspace = makeWorkspace(path.join(dir, 'ws'), 1, 100);
  const base = { GOOGLE_GEMINI_BASE_URL: fake.url };
  try {
    const processOnlyMs: number[] = [];
    for (let i = 0; i < runs; i++) {
      const proc = spawnBin(env.binPath, ['--help'], base);
      await proc.exited;
      processOnlyMs.push(Date.now() - proc.startedAt);
    }
    const queue = server.taskQueue('warm');
    const warmEnv = {
      ...base,
      TEMPORAL_ADDRESS: server.address,
      DURABLE_AGENT_TASK_QUEUE: queue,
      DURABLE_AGENT_HOME: path.join(dir, 'home-warm'),
    };
    const worker = spawnBin(env.binPath, ['worker'], warmEnv);
    try {
      await waitForPoller(server, queue, worker);
      // The worker's spare process (cli/spare.ts) serves warm runs: each run waits until the spare that
      // replaced the previous one is listening, as a run typed a few seconds after the last one finds it.
      const spareEnv = async () => (await waitForSpare(warmEnv.DURABLE_AGENT_HOME, worker), warmEnv);
      const warm = await timeRuns(env, server, fake, workspace, spareEnv, runs + 1);
      // A home of its own: with no worker running there is no spare either.
      const noWorkerEnv = () => ({
        ...warmEnv,
        DURABLE_AGENT_TASK_QUEUE: server.taskQueue('warm-alone'),
        DURABLE_AGENT_HOME: path.join(dir, 'home-alone'),
      });
      const warmNoWorker = await timeRuns(env, server, fake, workspace, noWorkerEnv, runs + 1);
      // One home with its embedded server's address recorded, as after a user's first run: the
      // embedded server starts only at its home's own address.
      const home = path.join(dir, 'home-cold');
      const address = `127.0.0.1:${await findFreePort()}`;
      recordOwnAddress(home, address);
      const coldEnv = { ...base, TEMPORAL_ADDRESS: address, DURABLE_AGENT_HOME: home };
      const cold = await timeRuns(env, undefined, fake, workspace, coldEnv, Math.max(2, runs - 1) + 1);
      // The first run of each scenario warms the OS caches (and creates the cold database): dropped.
      const totals = (samples: Sample[]) => samples.slice(1).map((s) => s.totalMs);
      return {
        processOnlyMs,
        warmMs: totals(warm),
        warmNoWorkerMs: totals(warmNoWorker),
        coldMs: totals(cold),
        phases: {
          warm: medianPhases(warm.slice(1)),
          warmNoWorker: medianPhases(warmNoWorker.slice(1)),
          cold: medianPhases(cold.slice(1)),
        },
      };
    } finally {
      await stopBin(worker);
    }
  } finally {
    await fake.close();
  }
}

type EnvSource = Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);

async function timeRuns(
  env: BenchEnv,
  server: BenchServer | undefined,
  fake: FakeGeminiServer,
  workspace: string,
  source: EnvSource,
  runs: number,
): Promise<Sample[]> {
  const out: Sample[] = [];
  for (let i = 0; i < runs; i++) {
    const vars = typeof source === 'function' ? await source() : source;
    fake.load([textResponse('Hello.')]);
    const proc = spawnBin(
      env.binPath,
      ['run', 'Say hello.', '-o', 'json', '--approval-mode', 'yolo', '-m', 'gemini-bench', '-w', workspace],
      vars,
    );
    const code = await proc.exited;
    if (code !== 0 || fake.requests.length === 0)
      throw new Error(`durable-agent run exited ${code}:\n${proc.output()}\n${fake.report()}`);
    const requestAt = fake.requests[0].time.getTime();
    // The embedded server is gone with `run`; its phases are read from the database by a later server.
    const times = server ? await eventTimes(server, JSON.parse(proc.stdout()).session_id) : undefined;
    out.push({ totalMs: requestAt - proc.startedAt, phases: phasesOf(proc.startedAt, times, requestAt) });
    await sleep(200); // let the embedded server's port and database settle
  }
  return out;
}

async function eventTimes(
  server: BenchServer,
  workflowId: string,
): Promise<{ started: number; activity: number } | undefined> {
  const history = await server.client.workflow.getHandle(workflowId).fetchHistory();
  const at = (e: { eventTime?: { seconds?: unknown; nanos?: number | null } | null } | undefined) =>
    e?.eventTime ? Number(e.eventTime.seconds) * 1000 + (e.eventTime.nanos ?? 0) / 1e6 : NaN;
  const events = history.events ?? [];
  return { started: at(events[0]), activity: at(events.find((e) => e.activityTaskStartedEventAttributes)) };
}

function phasesOf(
  startedAt: number,
  times: { started: number; activity: number } | undefined,
  requestAt: number,
): Phases {
  if (!times) return { toWorkflowStartMs: NaN, toActivityStartMs: NaN, toRequestMs: NaN };
  return {
    toWorkflowStartMs: times.started - startedAt,
    toActivityStartMs: times.activity - times.started,
    toRequestMs: requestAt - times.activity,
  };
}

function medianPhases(samples: Sample[]): Phases {
  const m = (key: keyof Phases) => median(samples.map((s) => s.phases[key]));
  return {
    toWorkflowStartMs: m('toWorkflowStartMs'),
    toActivityStartMs: m('toActivityStartMs'),
    toRequestMs: m('toRequestMs'),
  };
}

async function waitForSpare(home: string, worker: BinProcess): Promise<void> {
  if (!spareEnabled(loadConfig(), true)) return;
  const socket = spareSocketPath(home);
  await waitFor(async () => (fs.existsSync(socket) ? true : undefined), 60_000, `a spare process (${worker.output()})`);
}

export async function waitForPoller(server: BenchServer, taskQueue: string, worker: BinProcess): Promise<void> {
  await waitFor(
    async () => {
      if (worker.child.exitCode !== null) throw new Error(`worker exited:\n${worker.output()}`);
      const r = await server.client.workflowService.describeTaskQueue({
        namespace: 'default',
        taskQueue: { name: taskQueue, kind: 1 },
        taskQueueType: 1,
      });
      return (r.pollers ?? []).length > 0 ? true : undefined;
    },
    60_000,
    `a worker polling ${taskQueue}`,
  );
}
