import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { startPrompt } from '../../src/client';
import { FakeGeminiServer, functionCallResponse, textResponse } from '../../src/fake-gemini';
import { findFreePort, startDevServer, type DevServer } from '../../src/server/dev-server';
import { statusQuery, toolConfirmationSignal, type PromptResult } from '../../src/workflows/api';
import { exited, spawnWorker } from '../helpers/processes';
import { getTestEnv, closeTestEnv } from '../helpers/temporal-env';

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const fn of cleanups.reverse()) await fn().catch(() => undefined);
  await closeTestEnv();
});

/**
 * A call waits for approval; the worker is SIGKILLed and the server stopped and restarted on the
 * same SQLite database; the approval then arrives, and the tool runs exactly once.
 */
test('an approval survives a worker crash and a server restart, and the tool runs once', async () => {
  const env = await getTestEnv();
  const dir = fs.mkdtempSync(path.join(env.tmpDir, 'approval-crash-'));
  const workspace = fs.realpathSync(fs.mkdtempSync(path.join(dir, 'ws-')));
  const port = await findFreePort();
  const startServer = () =>
    startDevServer({ cliPath: env.cliPath, dbFile: path.join(dir, 'temporal.db'), port, headless: true });
  let server: DevServer = await startServer();
  cleanups.push(() => server.stop());
  const fake = await FakeGeminiServer.start({
    script: [
      functionCallResponse({ name: 'run_shell_command', args: { command: 'echo ran >> counter.txt' } }),
      textResponse('Counted.'),
    ],
  });
  cleanups.push(() => fake.close());
  const workerEnv = {
    TEMPORAL_ADDRESS: server.address,
    GOOGLE_GEMINI_BASE_URL: fake.url,
    DURABLE_AGENT_HOME: path.join(dir, 'home'),
  };
  const first = spawnWorker(workerEnv);
  cleanups.push(() => (first.kill('SIGKILL'), exited(first)));

  let client = await connect(server.address);
  const input = {
    prompt: 'count',
    workspace,
    model: 'gemini-test',
    approvalMode: 'default' as const,
    maxTurns: 5,
    modelRetryInitialMs: 100,
  };
  const handle = await startPrompt(client, input, { taskQueue: 'durable-agent', workflowId: `crash-${Date.now()}` });
  const callId = await pendingCall(client, handle.workflowId);

  first.kill('SIGKILL');
  await exited(first);
  await client.connection.close();
  await server.stop();
  server = await startServer();
  const second = spawnWorker(workerEnv);
  cleanups.push(() => (second.kill('SIGTERM'), exited(second)));
  client = await connect(server.address);
  cleanups.push(() => client.connection.close());

  expect(await pendingCall(client, handle.workflowId)).toBe(callId);
  expect(fs.existsSync(path.join(workspace, 'counter.txt'))).toBe(false);
  await client.workflow
    .getHandle(handle.workflowId)
    .signal(toolConfirmationSignal, { callId, outcome: 'proceed_once' });
  const result = (await client.workflow.getHandle(handle.workflowId).result()) as PromptResult;
  expect(result.response).toBe('Counted.');
  expect(fs.readFileSync(path.join(workspace, 'counter.txt'), 'utf8')).toBe('ran\n');
}, 120_000);

async function connect(address: string): Promise<Client> {
  return new Client({ connection: await Connection.connect({ address }) });
}

async function pendingCall(client: Client, workflowId: string): Promise<string> {
  for (let i = 0; i < 300; i++) {
    const status = await client.workflow
      .getHandle(workflowId)
      .query(statusQuery)
      .catch(() => undefined);
    if (status?.pendingApprovals.length) return status.pendingApprovals[0].callId;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the call never became pending');
}
