import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import type { Worker } from '@temporalio/worker';
import { promptStatus, startPrompt, type StatusReport } from '../../src/client';
import type { AgentEvent } from '../../src/core/events';
import { FakeGeminiServer, type ScriptLine } from '../../src/fake-gemini';
import { createGenAI } from '../../src/model/client';
import { FileTranscriptStore } from '../../src/store/file-store';
import { FileToolJournal } from '../../src/store/journal';
import { FileLiveStream } from '../../src/store/live-stream';
import { createAgentWorker } from '../../src/worker';
import { eventsQuery, type PromptInput, type PromptResult } from '../../src/workflows/api';
import { getTestEnv, type TestEnv } from './temporal-env';

/** A recognisable fake credential: the replay test proves it never reaches workflow history. */
export const TEST_API_KEY = 'test-api-key-4d1c9b-must-never-appear-in-history';

export interface PromptRun {
  workflowId: string;
  result?: PromptResult;
  error?: Error;
  events: AgentEvent[];
  status: StatusReport;
}

/**
 * One test file's agent: the shared dev server, a worker in this process on a task queue of its
 * own, the real `@google/genai` SDK pointed at a fake Gemini server over HTTP, and a file store.
 */
export interface Harness {
  env: TestEnv;
  fake: FakeGeminiServer;
  store: FileTranscriptStore;
  /** The directory of `store` (a CLI whose home holds it as `store` reads the same blobs). */
  storeDir: string;
  /** Where the worker publishes model output as it streams. */
  live: FileLiveStream;
  taskQueue: string;
  workspace(files?: Record<string, string>): string;
  start(script: ScriptLine[], input?: Partial<PromptInput>): Promise<WorkflowHandle>;
  run(script: ScriptLine[], input?: Partial<PromptInput>): Promise<PromptRun>;
  finish(handle: WorkflowHandle): Promise<PromptRun>;
  events(workflowId: string): Promise<AgentEvent[]>;
  close(): Promise<void>;
}

let counter = 0;

/** `home`: durable-agent's home on the worker (the user-level GEMINI.md); none by default. */
export async function createHarness(name: string, options: { home?: string } = {}): Promise<Harness> {
  const env = await getTestEnv();
  const root = fs.mkdtempSync(path.join(env.tmpDir, `${name}-`));
  const fake = await FakeGeminiServer.start({ script: [] });
  const storeDir = path.join(root, 'store');
  const store = new FileTranscriptStore(storeDir);
  const live = new FileLiveStream(path.join(root, 'live'));
  const taskQueue = env.uniqueTaskQueue(name);
  const worker: Worker = await createAgentWorker({
    connection: env.nativeConnection,
    namespace: 'default',
    taskQueue,
    models: createGenAI({ geminiApiKey: TEST_API_KEY }, fake.url).models,
    store,
    journal: new FileToolJournal(path.join(root, 'journal')),
    live,
    workflowBundlePath: env.workflowBundle.codePath,
    shutdownGraceTime: '1 second',
    home: options.home,
  });
  const running = worker.run();
  const harness: Harness = {
    env,
    fake,
    store,
    storeDir,
    live,
    taskQueue,
    workspace(files = {}) {
      const dir = fs.mkdtempSync(path.join(root, 'ws-'));
      for (const [file, content] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        fs.writeFileSync(path.join(dir, file), content);
      }
      return fs.realpathSync(dir);
    },
    async start(script, input = {}) {
      fake.load(script);
      const workflowId = `${name}-${Date.now()}-${++counter}`;
      return startPrompt(env.client, promptInput(harness, input), { taskQueue, workflowId });
    },
    async run(script, input = {}) {
      return harness.finish(await harness.start(script, input));
    },
    async finish(handle) {
      const outcome = await handle.result().then(
        (result: PromptResult) => ({ result }),
        (error: Error) => ({ error }),
      );
      return {
        workflowId: handle.workflowId,
        ...outcome,
        events: await harness.events(handle.workflowId),
        status: await promptStatus(env.client, handle.workflowId),
      };
    },
    async events(workflowId) {
      return (await env.client.workflow.getHandle(workflowId).query(eventsQuery, 0)).events;
    },
    async close() {
      worker.shutdown();
      await running;
      await fake.close();
    },
  };
  return harness;
}

function promptInput(h: Harness, input: Partial<PromptInput>): PromptInput {
  return {
    prompt: 'do the task',
    workspace: input.workspace ?? h.workspace(),
    model: 'gemini-test-model',
    approvalMode: 'yolo',
    maxTurns: 100,
    modelRetryInitialMs: 50,
    toolHeartbeatTimeoutMs: 5000,
    loopDecisionTimeoutMs: 15_000,
    ...input,
  };
}

/** Writes a finished workflow's history under test/histories for the replay test (RECORD_HISTORIES=1). */
export async function maybeRecordHistory(
  h: Pick<Harness, 'env'>,
  workflowId: string,
  name: string,
  runId?: string,
): Promise<void> {
  if (process.env.RECORD_HISTORIES !== '1') return;
  const history = await h.env.client.workflow.getHandle(workflowId, runId).fetchHistory();
  const { historyToJSON } = await import('@temporalio/common/lib/proto-utils');
  const dir = path.resolve(__dirname, '..', 'histories');
  fs.mkdirSync(dir, { recursive: true });
  // Stack traces and worker identities name this machine; replay needs neither.
  const root = path.resolve(__dirname, '..', '..');
  // The workflow id becomes the file's name, under which the replay test replays it (child ids derive from it).
  const text = historyToJSON(history)
    .split(root)
    .join('<root>')
    .split(`@${os.hostname()}`)
    .join('@test-host')
    .split(workflowId)
    .join(name);
  fs.writeFileSync(path.join(dir, `${name}.json`), text);
}
