import * as path from 'node:path';
import type { Worker, WorkerOptions } from '@temporalio/worker';
import {
  FakeGeminiServer,
  functionCallResponse,
  textResponse,
  type FakeGeminiOptions,
  type ScriptLine,
} from '../src/fake-gemini';
import { createGenAI } from '../src/model/client';
import { FileTranscriptStore } from '../src/store/file-store';
import { FileToolJournal } from '../src/store/journal';
import { createAgentWorker } from '../src/worker';
import { startPrompt } from '../src/client';
import type { PromptInput, PromptResult } from '../src/workflows/api';
import { makeWorkspace, type BenchEnv, type BenchServer } from './env';

/** Never a real key: every model request of the benchmark goes to a local fake. */
export const BENCH_API_KEY = 'bench-fake-key';

/**
 * An agent as the tests run it: a worker in this process (prebuilt workflow bundle, real activities,
 * the real SDK pointed at the fake Gemini server over HTTP, file stores), on a task queue of its own.
 */
export interface Rig {
  fake: FakeGeminiServer;
  store: FileTranscriptStore;
  journal: FileToolJournal;
  workspace: string;
  taskQueue: string;
  worker: Worker;
  /** Loads the script of an N-turn prompt and runs it to its end. */
  run(turns: number): Promise<{ ms: number; workflowId: string; result: PromptResult }>;
  close(): Promise<void>;
}

let counter = 0;

export async function openRig(
  env: BenchEnv,
  server: BenchServer,
  name: string,
  fileBytes: number,
  workerOptions: Partial<WorkerOptions> = {},
  fakeOptions: Partial<FakeGeminiOptions> = {},
): Promise<Rig> {
  const dir = path.join(env.tmp, `${name}-${++counter}`);
  const fake = await FakeGeminiServer.start({ ...fakeOptions, script: [] });
  const store = new FileTranscriptStore(path.join(dir, 'store'));
  const journal = new FileToolJournal(path.join(dir, 'journal'));
  const workspace = makeWorkspace(path.join(dir, 'ws'), 100, fileBytes);
  const taskQueue = server.taskQueue(name);
  const worker = await createAgentWorker({
    connection: server.native,
    namespace: 'default',
    taskQueue,
    models: createGenAI({ geminiApiKey: BENCH_API_KEY }, fake.url).models,
    store,
    journal,
    workflowBundlePath: env.workflowBundlePath,
    shutdownGraceTime: '1 second',
    ...workerOptions,
  });
  const running = worker.run();
  return {
    fake,
    store,
    journal,
    workspace,
    taskQueue,
    worker,
    async run(turns) {
      fake.load(scriptFor(turns));
      const workflowId = `${name}-${turns}-${Date.now()}-${++counter}`;
      const started = performance.now();
      const handle = await startPrompt(server.client, benchInput(workspace, turns), { taskQueue, workflowId });
      const result = await handle.result();
      const ms = performance.now() - started;
      if (result.terminateReason !== 'completed' || result.turns !== turns)
        throw new Error(`${workflowId} ended ${result.terminateReason} after ${result.turns} turns\n${fake.report()}`);
      return { ms, workflowId, result };
    },
    async close() {
      worker.shutdown();
      await running;
      await fake.close();
    },
  };
}

/** N model turns: N-1 answers calling read_file on f1.txt, f2.txt, … (no two alike), then text. */
export function scriptFor(turns: number): ScriptLine[] {
  const calls = Array.from({ length: turns - 1 }, (_, i) =>
    functionCallResponse({ name: 'read_file', args: { file_path: `f${(i % 100) + 1}.txt` } }),
  );
  return [...calls, textResponse('All files read.')];
}

/**
 * The prompt as `run --approval-mode yolo` sends it, with an explicit model (no routing call) and
 * loop detection off: from turn 30 on, Gemini CLI's LLM loop check would add model calls that the
 * fixed script does not answer, and the point here is the cost of the loop itself.
 */
export function benchInput(workspace: string, turns: number, prompt = 'Read the files one by one.'): PromptInput {
  return {
    prompt,
    workspace,
    model: 'gemini-bench',
    approvalMode: 'yolo',
    maxTurns: Math.max(turns + 1, 100),
    loopDetection: false,
  };
}
