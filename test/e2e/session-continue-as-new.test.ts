import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import { FakeGeminiServer, textResponse } from '../../src/fake-gemini';
import { createGenAI } from '../../src/genai';
import { startDevServer, type DevServer } from '../../src/server/dev-server';
import { FileTranscriptStore } from '../../src/store/file-store';
import { createAgentWorker } from '../../src/worker';
import type { PromptResult } from '../../src/workflows/messages';
import { agentSessionWorkflow, closeSessionSignal, sendMessageUpdate } from '../../src/workflows/session-workflow';
import { closeTestEnv, getTestEnv } from '../helpers/temporal-env';

/**
 * A dev server of its own whose dynamic config suggests continue-as-new after a few events, so that
 * a session continues as new between its prompts and still carries the whole conversation.
 */
let server: DevServer | undefined;
let fake: FakeGeminiServer | undefined;
afterAll(async () => {
  await fake?.close();
  await server?.stop();
  await closeTestEnv();
});

test('a session continues as new between prompts and keeps its conversation', async () => {
  const env = await getTestEnv();
  const dir = fs.mkdtempSync(path.join(env.tmpDir, 'can-'));
  server = await startDevServer({ cliPath: env.cliPath, dbFile: path.join(dir, 'db'), headless: true, dynamicConfig: { 'limit.historyCount.suggestContinueAsNew': 12 } });
  fake = await FakeGeminiServer.start({ script: [textResponse('one'), textResponse('two'), textResponse('three')] });
  const connection = await NativeConnection.connect({ address: server.address });
  const client = new Client({ connection: await Connection.connect({ address: server.address }) });
  const worker: Worker = await createAgentWorker({
    connection,
    namespace: 'default',
    taskQueue: 'can',
    models: createGenAI({ geminiApiKey: 'k' }, fake.url).models,
    store: new FileTranscriptStore(path.join(dir, 'store')),
    workflowBundlePath: env.workflowBundle.codePath,
    shutdownGraceTime: '1 second',
  });
  await worker.runUntil(async () => {
    const workspace = fs.realpathSync(fs.mkdtempSync(path.join(dir, 'ws-')));
    const session = await client.workflow.start(agentSessionWorkflow, {
      taskQueue: 'can',
      workflowId: `can-session-${Date.now()}`,
      args: [{ defaults: { workspace, model: 'm', approvalMode: 'yolo', maxTurns: 5, modelRetryInitialMs: 50 } }],
    });
    const results: PromptResult[] = [];
    for (const text of ['q1', 'q2', 'q3']) {
      const id = await client.workflow.getHandle(session.workflowId).executeUpdate(sendMessageUpdate, { args: [{ text }] });
      const handle = client.workflow.getHandle(id);
      for (let i = 0; i < 200 && !(await handle.describe().then(() => true, () => false)); i++) await new Promise((r) => setTimeout(r, 50));
      results.push((await handle.result()) as PromptResult);
    }
    expect(results.map((r) => r.response)).toEqual(['one', 'two', 'three']);
    const runs: string[] = [];
    for await (const wf of client.workflow.list({ query: `WorkflowId = '${session.workflowId}'` })) runs.push(wf.runId);
    expect(runs.length).toBeGreaterThan(1);
    const contents = (fake!.requests[2].body as { contents: { parts: { text?: string }[] }[] }).contents.map((c) => c.parts[0].text);
    expect(contents).toEqual(['q1', 'one', 'q2', 'two', 'q3']);
    await client.workflow.getHandle(session.workflowId).signal(closeSessionSignal);
  });
  await client.connection.close();
  await connection.close();
}, 120_000);
