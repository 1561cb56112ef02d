import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { FakeGeminiServer, functionCallResponse, textResponse, type ScriptLine } from '../../src/fake-gemini';
import { createGenAI } from '../../src/model/client';
import { startDevServer, type DevServer } from '../../src/server/dev-server';
import { FileTranscriptStore } from '../../src/store/file-store';
import { createAgentWorker } from '../../src/worker';
import { agentPromptWorkflow } from '../../src/workflows';
import {
  eventsQuery,
  statusQuery,
  toolConfirmationSignal,
  type PromptResult,
  closeSessionSignal,
  sendMessageUpdate,
} from '../../src/workflows/api';
import { agentSessionWorkflow } from '../../src/workflows/session-workflow';
import { closeTestEnv, getTestEnv } from '../helpers/temporal-env';
import { maybeRecordHistory } from '../helpers/agent-harness';
import { promptResultOnceStarted } from '../helpers/session-prompts';
import { withoutSessionContext } from '../helpers/sent-parts';

/**
 * A dev server of its own whose dynamic config suggests continue-as-new after a few events, so that
 * sessions continue as new between their prompts and long prompts between their turns.
 */
let server: DevServer;
let client: Client;
let connection: NativeConnection;
let dir: string;
beforeAll(async () => {
  const env = await getTestEnv();
  dir = fs.mkdtempSync(path.join(env.tmpDir, 'can-'));
  server = await startDevServer({
    cliPath: env.cliPath,
    dbFile: path.join(dir, 'db'),
    headless: true,
    dynamicConfig: { 'limit.historyCount.suggestContinueAsNew': 12 },
  });
  connection = await NativeConnection.connect({ address: server.address });
  client = new Client({ connection: await Connection.connect({ address: server.address }) });
}, 60_000);
afterAll(async () => {
  await client?.connection.close();
  await connection?.close();
  await server?.stop();
  await closeTestEnv();
});

/** Runs `fn` with a worker on its own task queue whose model is a fake answering `script`. */
async function withWorker(
  taskQueue: string,
  script: ScriptLine[],
  fn: (fake: FakeGeminiServer) => Promise<void>,
): Promise<void> {
  const env = await getTestEnv();
  const fake = await FakeGeminiServer.start({ script });
  try {
    const worker = await createAgentWorker({
      connection,
      namespace: 'default',
      taskQueue,
      models: createGenAI({ geminiApiKey: 'k' }, fake.url).models,
      store: new FileTranscriptStore(path.join(dir, 'store')),
      workflowBundlePath: env.workflowBundle.codePath,
      shutdownGraceTime: '1 second',
    });
    await worker.runUntil(() => fn(fake));
  } finally {
    await fake.close();
  }
}

async function runIds(workflowId: string): Promise<string[]> {
  const runs: { runId: string; startTime: Date }[] = [];
  for await (const run of client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) runs.push(run);
  return runs.sort((a, b) => a.startTime.getTime() - b.startTime.getTime()).map((run) => run.runId);
}

async function runsOf(workflowId: string): Promise<number> {
  return (await runIds(workflowId)).length;
}

/** With RECORD_HISTORIES=1, each run as its own history: the carry a run hands on is the next one's input. */
async function recordRuns(workflowId: string, name: string, count: number): Promise<void> {
  const runs = await runIds(workflowId);
  for (const [k, runId] of runs.slice(0, count).entries()) {
    await maybeRecordHistory({ env: { client } as never }, workflowId, `${name}-run${k + 1}`, runId);
  }
}

const workspace = () => fs.realpathSync(fs.mkdtempSync(path.join(dir, 'ws-')));

test('a session continues as new between prompts and keeps its conversation', async () => {
  await withWorker('can-session', [textResponse('one'), textResponse('two'), textResponse('three')], async (fake) => {
    const session = await client.workflow.start(agentSessionWorkflow, {
      taskQueue: 'can-session',
      workflowId: `can-session-${Date.now()}`,
      args: [
        {
          defaults: { workspace: workspace(), model: 'm', approvalMode: 'yolo', maxTurns: 5, modelRetryInitialMs: 50 },
        },
      ],
    });
    const results: PromptResult[] = [];
    for (const text of ['q1', 'q2', 'q3']) {
      const id = await client.workflow
        .getHandle(session.workflowId)
        .executeUpdate(sendMessageUpdate, { args: [{ text }] });
      results.push(await promptResultOnceStarted(client, id, 200));
    }
    expect(results.map((r) => r.response)).toEqual(['one', 'two', 'three']);
    expect(await runsOf(session.workflowId)).toBeGreaterThan(1);
    const contents = (fake.requests[2].body as { contents: { parts: { text?: string }[] }[] }).contents.map(
      (c) => withoutSessionContext(c.parts)[0].text,
    );
    expect(contents).toEqual(['q1', 'one', 'q2', 'two', 'q3']);
    await client.workflow.getHandle(session.workflowId).signal(closeSessionSignal);
    await recordRuns(session.workflowId, 'session-continue-as-new', 2);
  });
}, 120_000);

test('a long prompt continues as new between turns and keeps its conversation, events and granted rules', async () => {
  // No redirection: a redirected command always asks again, whatever rule was granted (as Gemini CLI).
  // Each command differs, or loop detection would rightly stop the prompt.
  const shell = (n: number) => ({
    name: 'run_shell_command',
    args: { command: `node -e "require('fs').appendFileSync('log.txt', '${n}\\n')"` },
  });
  const script = [...Array.from({ length: 7 }, (_, i) => functionCallResponse(shell(i + 1))), textResponse('all done')];
  await withWorker('can-prompt', script, async (fake) => {
    const ws = workspace();
    const handle = await client.workflow.start(agentPromptWorkflow, {
      taskQueue: 'can-prompt',
      workflowId: `can-prompt-${Date.now()}`,
      args: [
        {
          prompt: 'log seven times',
          workspace: ws,
          model: 'm',
          approvalMode: 'default',
          maxTurns: 20,
          modelRetryInitialMs: 50,
        },
      ],
    });
    // The first call asks; "always" covers the same command in every later turn, also after continue-as-new.
    let status = await handle.query(statusQuery);
    for (let i = 0; i < 400 && status.pendingApprovals.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      status = await handle.query(statusQuery);
    }
    await handle.signal(toolConfirmationSignal, {
      callId: status.pendingApprovals[0].callId,
      outcome: 'proceed_always',
    });
    const result = (await handle.result()) as PromptResult;
    expect(result).toMatchObject({ terminateReason: 'completed', response: 'all done', turns: 8 });
    expect(fs.readFileSync(path.join(ws, 'log.txt'), 'utf8')).toBe('1\n2\n3\n4\n5\n6\n7\n');
    expect(await runsOf(handle.workflowId)).toBeGreaterThan(2);
    const final = await handle.query(statusQuery);
    expect(final.runs).toBeGreaterThan(1);
    // The last request carries the whole conversation: prompt + 7 call/response pairs.
    const last = fake.requests[fake.requests.length - 1].body as { contents: unknown[] };
    expect(last.contents).toHaveLength(15);
    // Events keep their absolute numbering across runs: one page from 0 is gapless.
    const page = await handle.query(eventsQuery, 0);
    expect(page.events.map((e) => e.seq)).toEqual(page.events.map((_, i) => i));
    expect(page.events.filter((e) => e.type === 'tool_call_request')).toHaveLength(7);
    expect(page.events.filter((e) => e.type === 'user_prompt')).toHaveLength(1);
    await recordRuns(handle.workflowId, 'prompt-continue-as-new', 2);
  });
}, 120_000);

test('the project context loaded at the start reaches the requests of every run, and is read only once', async () => {
  const list = (n: number) => functionCallResponse({ name: 'list_directory', args: { dir_path: n % 2 ? '.' : 'sub' } });
  const script = [...Array.from({ length: 5 }, (_, i) => list(i + 1)), textResponse('listed')];
  await withWorker('can-memory', script, async (fake) => {
    const ws = workspace();
    fs.mkdirSync(path.join(ws, '.git'));
    fs.mkdirSync(path.join(ws, 'sub'));
    fs.writeFileSync(path.join(ws, 'GEMINI.md'), 'carried rules');
    const handle = await client.workflow.start(agentPromptWorkflow, {
      taskQueue: 'can-memory',
      workflowId: `can-memory-${Date.now()}`,
      args: [
        { prompt: 'list', workspace: ws, model: 'm', approvalMode: 'yolo', maxTurns: 20, modelRetryInitialMs: 50 },
      ],
    });
    expect(((await handle.result()) as PromptResult).response).toBe('listed');
    expect(await runsOf(handle.workflowId)).toBeGreaterThan(1);
    const systems = fake.requests.map((r) =>
      JSON.stringify((r.body as { systemInstruction: unknown }).systemInstruction),
    );
    expect(systems).toHaveLength(6);
    for (const system of systems) expect(system).toContain('carried rules');
    let loads = 0;
    for (const runId of await runIds(handle.workflowId)) {
      const history = await client.workflow.getHandle(handle.workflowId, runId).fetchHistory();
      loads += history.events!.filter(
        (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'loadMemory',
      ).length;
    }
    expect(loads).toBe(1);
  });
}, 120_000);
