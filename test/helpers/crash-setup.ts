import * as fs from 'node:fs';
import * as path from 'node:path';
import { FakeGeminiServer } from '../../src/fake-gemini';
import { CRASH_SCRIPT } from './crash-script';
import { exited, spawnWorker } from './processes';

/** Tuned so that a dead worker's tasks move to a live one within about two seconds. */
export const FAST_FAILOVER = {
  toolHeartbeatTimeoutMs: 2000,
  modelHeartbeatTimeoutMs: 2000,
  stickyTimeoutMs: 1000,
  workflowTaskTimeoutMs: 3000,
};

export type WorkerProcess = ReturnType<typeof spawnWorker>;

/** A trial's own fake Gemini server, task queue, home, workspace and worker, ready before its session starts. */
export interface PreparedSession {
  fake: FakeGeminiServer;
  workspace: string;
  home: string;
  taskQueue: string;
  workerEnv: Record<string, string>;
  worker: WorkerProcess;
}

/**
 * Starts what a session run needs, its worker process included: a caller may prepare the next trial
 * while the current one runs, so that the worker's start is off the trial's path.
 */
export async function prepareCrashSession(address: string, dir: string, label: string): Promise<PreparedSession> {
  fs.mkdirSync(path.join(dir, 'ws'), { recursive: true });
  const fake = await FakeGeminiServer.start({ script: CRASH_SCRIPT, byTurn: true });
  const taskQueue = `crash-${label}-${Date.now().toString(36)}`;
  const home = path.join(dir, 'home');
  const workerEnv = {
    TEMPORAL_ADDRESS: address,
    DURABLE_AGENT_TASK_QUEUE: taskQueue,
    GOOGLE_GEMINI_BASE_URL: fake.url,
    DURABLE_AGENT_HOME: home,
    DURABLE_AGENT_STICKY_TIMEOUT_MS: String(FAST_FAILOVER.stickyTimeoutMs),
  };
  const workspace = fs.realpathSync(path.join(dir, 'ws'));
  return { fake, workspace, home, taskQueue, workerEnv, worker: spawnWorker(workerEnv) };
}

/** Stops what `prepareCrashSession` started. */
export async function releaseCrashSession(prepared: PreparedSession, worker = prepared.worker): Promise<void> {
  worker.kill('SIGTERM');
  await exited(worker);
  await prepared.fake.close();
}
