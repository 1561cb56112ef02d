import * as fs from 'node:fs';
import * as path from 'node:path';
import { promptStatus, startPrompt } from '../src/client';
import { toolConfirmationSignal } from '../src/workflows/api';
import { makeWorkspace, type BenchEnv, type BenchServer } from './env';
import { LoopModel, loopPrompt, shellStartedFile } from './loop-model';
import { spawnBin, stopBin, type BinProcess } from './processes';
import { benchInput } from './rig';
import { waitForPoller } from './start-latency';
import { waitFor } from './stats';

export interface ResumeSample {
  /** New worker's process start to the prompt's next model request. */
  ms: number;
  /** Kill of the old worker to that request. */
  sinceKillMs: number;
  /** New worker's process start to its first poll (seen by the server). */
  workerReadyMs?: number;
}

export type ResumeCase = 'awaiting_approval' | 'model_call_in_flight' | 'tool_call_in_flight';

const TAGS: Record<ResumeCase, string> = {
  awaiting_approval: 'write',
  model_call_in_flight: 'read',
  tool_call_in_flight: 'shell',
};

/**
 * A `durable-agent worker` process is SIGKILLed while a prompt waits (for an approval, for its
 * model's answer, or for a shell command); a new worker process starts at once. Measures how long the
 * prompt takes to send its next model request (for the shell command: the one that tells the model
 * its outcome is unknown).
 */
export async function measureResume(
  env: BenchEnv,
  server: BenchServer,
  which: ResumeCase,
  runs: number,
): Promise<ResumeSample[]> {
  const model = await LoopModel.start();
  const samples: ResumeSample[] = [];
  try {
    for (let i = 0; i < runs; i++) samples.push(await resumeOnce(env, server, model, which, i));
  } finally {
    await model.close();
  }
  return samples;
}

async function resumeOnce(
  env: BenchEnv,
  server: BenchServer,
  model: LoopModel,
  which: ResumeCase,
  i: number,
): Promise<ResumeSample> {
  const dir = path.join(env.tmp, `resume-${which}-${i}`);
  const workspace = makeWorkspace(path.join(dir, 'ws'), 3, 1024);
  const taskQueue = server.taskQueue('resume');
  const workerEnv = {
    TEMPORAL_ADDRESS: server.address,
    DURABLE_AGENT_TASK_QUEUE: taskQueue,
    GOOGLE_GEMINI_BASE_URL: model.url,
    DURABLE_AGENT_HOME: path.join(dir, 'home'),
  };
  const tag = `${TAGS[which]}-${i}`;
  const first = spawnBin(env.binPath, ['worker'], workerEnv);
  let second: BinProcess | undefined;
  try {
    await waitForPoller(server, taskQueue, first);
    if (which === 'model_call_in_flight') model.held.add(tag);
    // Approval case: one write_file (approved once), then the answer; shell case: one command, then the
    // answer; model call case: read_file turns.
    const turns = which === 'model_call_in_flight' ? 3 : 2;
    const input = {
      ...benchInput(workspace, turns, loopPrompt(tag, turns)),
      approvalMode: which === 'awaiting_approval' ? ('default' as const) : ('yolo' as const),
    };
    const handle = await startPrompt(server.client, input, {
      taskQueue,
      workflowId: `bench-resume-${tag}-${Date.now()}`,
    });
    const pendingCall = await waitUntilInterruptible(
      server,
      model,
      { workflowId: handle.workflowId, workspace },
      tag,
      which,
    );
    first.child.kill('SIGKILL');
    await first.exited;
    const killedAt = Date.now();
    model.held.delete(tag);
    const before = model.requestsOf(tag).length;
    second = spawnBin(env.binPath, ['worker'], workerEnv);
    if (pendingCall) await handle.signal(toolConfirmationSignal, { callId: pendingCall, outcome: 'proceed_once' });
    const ready = pollingSince(server, taskQueue, second);
    const next = await waitFor(() => model.requestsOf(tag)[before], 180_000, `the next model request of ${tag}`);
    await handle.result();
    return { ms: next.time - second.startedAt, sinceKillMs: next.time - killedAt, workerReadyMs: await ready };
  } finally {
    await stopBin(first, 'SIGKILL');
    if (second) await stopBin(second);
  }
}

/** Waits until the prompt awaits an approval (returns its call id) or its model request is held. */
async function waitUntilInterruptible(
  server: BenchServer,
  model: LoopModel,
  prompt: { workflowId: string; workspace: string },
  tag: string,
  which: ResumeCase,
): Promise<string | undefined> {
  if (which === 'tool_call_in_flight') {
    const marker = path.join(prompt.workspace, shellStartedFile(1));
    await waitFor(() => (fs.existsSync(marker) ? true : undefined), 60_000, `the shell command of ${tag}`);
    return undefined;
  }
  if (which === 'model_call_in_flight') {
    await waitFor(
      () => (model.requestsOf(tag).length > 0 ? true : undefined),
      60_000,
      `the first model request of ${tag}`,
    );
    return undefined;
  }
  return waitFor(
    async () => (await promptStatus(server.client, prompt.workflowId)).pendingApprovals?.[0]?.callId,
    60_000,
    `an approval request of ${tag}`,
  );
}

/** When the process's first poll reached the server (its identity is `pid@host`), relative to its start. */
async function pollingSince(server: BenchServer, taskQueue: string, proc: BinProcess): Promise<number | undefined> {
  const identity = `${proc.child.pid}@`;
  return waitFor(
    async () => {
      const r = await server.client.workflowService.describeTaskQueue({
        namespace: 'default',
        taskQueue: { name: taskQueue, kind: 1 },
        taskQueueType: 1,
      });
      return (r.pollers ?? []).some((p) => p.identity?.startsWith(identity)) ? Date.now() - proc.startedAt : undefined;
    },
    60_000,
    'the new worker to poll',
  ).catch(() => undefined);
}
