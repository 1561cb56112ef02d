import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import type { Content } from '@google/genai';
import { FileTranscriptStore } from '../../src/store/file-store';
import type { PromptResult } from '../../src/workflows/api';
import { agentSessionWorkflow } from '../../src/workflows/session-workflow';
import { CRASH_MESSAGES } from './crash-script';
import { exited, spawnWorker } from './processes';
import { tookOver } from './crash-takeover';
import {
  FAST_FAILOVER,
  prepareCrashSession,
  releaseCrashSession,
  type PreparedSession,
  type WorkerProcess,
} from './crash-setup';
import { closeSessionSignal, sendMessageUpdate } from '../../src/workflows/api';

/** What a crash can act on while the session runs; a crash replaces what it killed. */
export interface RunContext {
  client: Client;
  worker: WorkerProcess;
  workerEnv: Record<string, string>;
  /** Worker pids in start order (the first is the one the session started on). */
  workerPids: number[];
}

export interface Crash {
  /** Milliseconds after the previous crash (or after the messages were sent), or after the takeover. */
  delayMs: number;
  /**
   * Count `delayMs` from the moment the current worker first started one of the session's tasks (read
   * from history), so that the kill lands in work the replacement worker took over, not in its start.
   */
  afterTakeover?: boolean;
  run(ctx: RunContext): Promise<void>;
}

export interface CrashRecord {
  delayMs: number;
  killedAt: number;
  /** False when the session had already finished before the moment came. */
  happened: boolean;
}

export interface SessionOutcome {
  sessionId: string;
  startedAt: number;
  /** When both messages had been accepted and the session closed for new ones: crash delays count from here. */
  sentAt: number;
  /** When the session workflow closed (server time). */
  closedAt: number;
  crashes: CrashRecord[];
  workspace: Record<string, string>;
  transcript: Content[];
  modelRequests: number;
  unexpectedModelCalls: string[];
  workerPids: number[];
  /** Every workflow of the session (the session and its prompts), for history analysis. */
  workflowIds: string[];
}

export interface SessionRunOptions {
  /** Client connected to the server that holds the session (a crash may replace it). */
  client: Client;
  address: string;
  /** A fresh directory for this run: workspace and agent home go under it. */
  dir: string;
  label: string;
  crashes: Crash[];
  timeoutMs?: number;
}

/**
 * Runs the scripted session on a worker process of its own (own task queue, home and fake Gemini
 * server; `prepared` if given, else started here), applying each crash at its moment, and collects
 * what the comparison needs.
 */
export async function runCrashSession(options: SessionRunOptions, prepared?: PreparedSession): Promise<SessionOutcome> {
  const { fake, workspace, home, taskQueue, workerEnv, worker } =
    prepared ?? (await prepareCrashSession(options.address, options.dir, options.label));
  const ctx: RunContext = { client: options.client, worker, workerEnv, workerPids: [worker.pid ?? 0] };
  try {
    const sessionId = `crash-${options.label}-${Date.now().toString(36)}`;
    const startedAt = Date.now();
    await startSession(ctx.client, sessionId, taskQueue, workspace);
    const sentAt = Date.now();
    const crashes = await applyCrashes(ctx, sessionId, options.crashes);
    const closedAt = await waitClosed(ctx, sessionId, options.timeoutMs ?? 120_000);
    const promptIds = CRASH_MESSAGES.map((_, i) => `${sessionId}-p${i + 1}`);
    const last = (await ctx.client.workflow.getHandle(promptIds.at(-1)!).result()) as PromptResult;
    const store = new FileTranscriptStore(path.join(home, 'store'));
    const transcript = await store.readMessages(last.transcript!.id, last.transcript!.length);
    return {
      sessionId,
      startedAt,
      sentAt,
      closedAt,
      crashes,
      workspace: snapshot(workspace),
      transcript,
      modelRequests: fake.requests.length,
      unexpectedModelCalls: fake.unexpected.map((u) => u.message),
      workerPids: ctx.workerPids,
      workflowIds: [sessionId, ...promptIds],
    };
  } finally {
    await releaseCrashSession({ fake, workspace, home, taskQueue, workerEnv, worker }, ctx.worker);
  }
}

async function startSession(client: Client, sessionId: string, taskQueue: string, workspace: string): Promise<void> {
  const defaults = {
    workspace,
    model: 'gemini-test',
    approvalMode: 'yolo' as const,
    maxTurns: 30,
    modelRetryInitialMs: 100,
    toolHeartbeatTimeoutMs: FAST_FAILOVER.toolHeartbeatTimeoutMs,
    modelHeartbeatTimeoutMs: FAST_FAILOVER.modelHeartbeatTimeoutMs,
  };
  const handle = await client.workflow.start(agentSessionWorkflow, {
    taskQueue,
    workflowId: sessionId,
    workflowTaskTimeout: FAST_FAILOVER.workflowTaskTimeoutMs,
    args: [{ defaults }],
  });
  for (const text of CRASH_MESSAGES) await handle.executeUpdate(sendMessageUpdate, { args: [{ text }] });
  await handle.signal(closeSessionSignal);
}

async function applyCrashes(ctx: RunContext, sessionId: string, crashes: Crash[]): Promise<CrashRecord[]> {
  const records: CrashRecord[] = [];
  const ids = [sessionId, ...CRASH_MESSAGES.map((_, i) => `${sessionId}-p${i + 1}`)];
  for (const crash of crashes) {
    let open = crash.afterTakeover
      ? await tookOver(ctx.client, ctx.worker.pid, ids, () => isOpen(ctx, sessionId))
      : true;
    const deadline = Date.now() + crash.delayMs;
    while (open && Date.now() < deadline) {
      await sleep(Math.min(50, deadline - Date.now()));
      open = await isOpen(ctx, sessionId);
    }
    if (!open) {
      records.push({ delayMs: crash.delayMs, killedAt: 0, happened: false });
      continue;
    }
    records.push({ delayMs: crash.delayMs, killedAt: Date.now(), happened: true });
    await crash.run(ctx);
  }
  return records;
}

async function isOpen(ctx: RunContext, sessionId: string): Promise<boolean> {
  const description = await ctx.client.workflow
    .getHandle(sessionId)
    .describe()
    .catch(() => undefined);
  return description?.status.name !== 'COMPLETED';
}

async function waitClosed(ctx: RunContext, sessionId: string, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const description = await ctx.client.workflow
      .getHandle(sessionId)
      .describe()
      .catch(() => undefined);
    if (description && description.status.name !== 'RUNNING') {
      if (description.status.name !== 'COMPLETED')
        throw new Error(`session ${sessionId} ended ${description.status.name}`);
      return description.closeTime!.getTime();
    }
    await sleep(100);
  }
  throw new Error(`session ${sessionId} did not finish in ${timeoutMs} ms; worker output:\n${ctx.worker.output()}`);
}

/** SIGKILLs the worker and starts a new one against the same server, queue and home. */
export function killWorker(delayMs: number): Crash {
  return {
    delayMs,
    async run(ctx) {
      ctx.worker.kill('SIGKILL');
      await exited(ctx.worker);
      ctx.worker = spawnWorker(ctx.workerEnv);
      ctx.workerPids.push(ctx.worker.pid ?? 0);
    },
  };
}

export async function connectClient(address: string): Promise<Client> {
  return new Client({ connection: await Connection.connect({ address }) });
}

/** Every file under `dir`, by relative path. */
export function snapshot(dir: string, prefix = ''): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of fs.readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = path.join(prefix, entry.name);
    if (entry.isDirectory()) Object.assign(files, snapshot(dir, rel));
    else files[rel] = fs.readFileSync(path.join(dir, rel), 'utf8');
  }
  return files;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
