/**
 * `ask_user` through the binary: `run` without a terminal prints the question and the
 * exact commands that answer it; `pending` and `status` (text and --json) show it; `durable-agent
 * answer` refuses bad answers with exit 42 and sends a good one, and the printed stock `temporal
 * workflow signal` line works too; a worker SIGKILLed while a question waits loses nothing. Run
 * `npm run build` first: the binary runs `dist/`.
 */
import { execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { Client } from '@temporalio/client';
import { startPrompt } from '../../src/client';
import { FakeGeminiServer, functionCallResponse, textResponse } from '../../src/fake-gemini';
import { answerQuestionSignal, statusQuery, type PromptResult } from '../../src/workflows/api';
import { BIN, CliProcess, expectExit, sandboxesCleanedAfterEach, NAMED_MODEL } from '../helpers/cli';
import { exited, spawnWorker } from '../helpers/processes';
import { closeTestEnv, getTestEnv, TEST_ENV_VARS } from '../helpers/temporal-env';
import { QUESTIONS } from '../helpers/questions';

jest.setTimeout(180_000);

const sharedAddress = () => process.env[TEST_ENV_VARS.address] as string;
const sandbox = sandboxesCleanedAfterEach();
afterAll(() => closeTestEnv());

const script = (answer: string) => [
  functionCallResponse({ name: 'ask_user', args: { questions: QUESTIONS } }),
  textResponse(answer),
];

test('run prints the question; pending, status and `answer` see it; bad answers exit 42', async () => {
  const fake = await FakeGeminiServer.start({ script: script('Using Postgres on 5432.') });
  try {
    const box = sandbox('ask-user', sharedAddress());
    const env = { GOOGLE_GEMINI_BASE_URL: fake.url, DURABLE_AGENT_TASK_QUEUE: `cli-ask-${Date.now()}` };
    // A worker that outlives `run`: the watchers below read the prompt's last events with a query, which
    // a closed workflow answers only while some worker of its queue is up (run's own worker leaves with it).
    box.start(['worker'], { env });
    const run = box.start(['run', 'set up the service', ...NAMED_MODEL, '-w', box.workspace], { env });
    const [, id, callId] = await run.waitFor('stderr', /durable-agent answer (\S+) (\S+) --answer/);
    expect(run.stderr).toContain('0. [Database] Which database should the service use?');
    expect(run.stderr).toContain('   - Postgres: relational');
    expect(run.stderr).toContain(`durable-agent answer ${id} ${callId} --answer '...' --answer '...'`);
    // `watch` shows the question too: in text with the commands that answer it, in stream-json as a `question` line.
    const watchText = box.start(['watch', id], { env });
    const watchJson = box.start(['watch', id, '-o', 'stream-json'], { env });
    await watchText.waitFor('stderr', /durable-agent answer \S+ \S+ --answer/);
    await watchJson.waitFor('stdout', /"type":"question"/);

    const pending = await box.run(['pending']);
    expectExit(pending, 0);
    expect(pending.stdout).toMatch(new RegExp(`${id}\\s+${callId}\\s+ask_user`));
    expect(pending.stdout).toContain('1. [Port] Which port?');
    const json = await box.run(['status', id, '--json']);
    expectExit(json, 0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      status: 'awaiting_answer',
      pendingApprovals: [],
      pendingQuestions: [{ callId, questions: QUESTIONS }],
    });
    const text = await box.run(['status', id]);
    expect(text.stdout).toContain(`awaiting an answer: ${callId} ask_user`);

    const unknown = await box.run(['answer', id, 'nope', '--answer', 'x'], { env });
    expectExit(unknown, 42);
    expect(unknown.stderr).toContain(`unknown callId nope; questions awaiting an answer: ${callId}`);
    const none = await box.run(['answer', id, callId], { env });
    expectExit(none, 42);
    expect(none.stderr).toContain('give --answer TEXT once per question, in order, or --dismiss');
    const tooMany = await box.run(['answer', id, callId, '--answer', 'a', '--answer', 'b', '--answer', 'c'], { env });
    expectExit(tooMany, 42);
    expect(tooMany.stderr).toContain(`there is no question 2: call ${callId} asked 2`);

    const good = await box.run(['answer', id, '--answer', 'Postgres', '--answer', '5432'], { env });
    expectExit(good, 0);
    expect(good.stdout).toContain(`answer recorded for ${callId}`);
    const again = await box.run(['answer', id, callId, '--answer', 'SQLite'], { env });
    expectExit(again, 42);

    const result = await run.done;
    expectExit(result, 0);
    expect(result.stdout).toContain('Using Postgres on 5432.');
    const watched = await watchText.done;
    expectExit(watched, 0);
    expect(watched.stderr).toContain('0. [Database] Which database should the service use?');
    expect(watched.stderr).toMatch(/✓ ask_user: .*Postgres/);
    const lines = (await watchJson.done).stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.find((l) => l.type === 'question')).toMatchObject({ tool_id: callId, questions: QUESTIONS });
    const answered = lines.find((l) => l.type === 'tool_result' && l.tool_id === callId);
    expect(answered).toMatchObject({ status: 'success', output: expect.stringContaining('5432') });
    expect(JSON.stringify(fake.requests[1].body)).toContain(
      JSON.stringify(JSON.stringify({ answers: { '0': 'Postgres', '1': '5432' } })),
    );
    fake.assertComplete();
  } finally {
    await fake.close();
  }
});

test('the printed `temporal workflow signal` line, with the answers filled in, answers the question', async () => {
  const box = sandbox('ask-user-signal', sharedAddress());
  const file = box.script(script('Using SQLite.'));
  const run = box.start(['run', 'set up the service', '--fake-responses', file, '-w', box.workspace]);
  const [, id, callId] = await run.waitFor('stderr', /durable-agent answer (\S+) (\S+) --answer/);
  const printed = (await run.waitFor('stderr', /temporal workflow signal .*$/m))[0];
  expect(printed).toBe(
    `temporal workflow signal --workflow-id ${id} --name answerQuestion --input ` +
      `'{"callId":"${callId}","answers":["...","..."]}'`,
  );
  const temporalDir = path.dirname(process.env[TEST_ENV_VARS.cliPath] as string);
  const env = { ...box.env(), PATH: `${temporalDir}${path.delimiter}${process.env.PATH}` };
  const filled = printed.replace('["...","..."]', '["SQLite","8080"]');
  await promisify(execFile)('bash', ['-c', filled], { env, timeout: 30_000 });
  const result = await run.done;
  expectExit(result, 0);
  expect(result.stdout).toContain('Using SQLite.');
});

test('chat prints the question with the commands; `answer` on the session’s prompt lets it finish', async () => {
  const box = sandbox('ask-user-chat', sharedAddress());
  const file = box.script(script('Chat noted it.'));
  const id = `ask-chat-${Date.now()}`;
  const child = spawn(process.execPath, [BIN, 'chat', id, '-w', box.workspace, '--fake-responses', file], {
    cwd: box.dir,
    env: box.env(),
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  const cli = new CliProcess(child, 90_000);
  child.stdin!.write('set up the service\n');
  const [, promptId, callId] = await cli.waitFor('stderr', /durable-agent answer (\S+) (\S+) --answer/);
  expect(promptId).toBe(`${id}-p1`);
  expectExit(await box.run(['answer', promptId, callId, '--answer', 'Postgres', '--answer', '5432']), 0);
  child.stdin!.end();
  const done = await cli.done;
  expectExit(done, 0);
  expect(done.stdout).toContain('Chat noted it.');
});

test('a waiting question survives a SIGKILLed worker: a new worker takes the answer and finishes', async () => {
  const env = await getTestEnv();
  const fake = await FakeGeminiServer.start({ script: script('Using Postgres.') });
  const dir = fs.mkdtempSync(path.join(env.tmpDir, 'ask-kill-'));
  const taskQueue = env.uniqueTaskQueue('ask-kill');
  const workerEnv = {
    TEMPORAL_ADDRESS: env.address,
    GOOGLE_GEMINI_BASE_URL: fake.url,
    DURABLE_AGENT_HOME: path.join(dir, 'home'),
    DURABLE_AGENT_TASK_QUEUE: taskQueue,
  };
  const first = spawnWorker(workerEnv);
  let second: ReturnType<typeof spawnWorker> | undefined;
  try {
    const input = {
      prompt: 'set up the service',
      workspace: fs.realpathSync(fs.mkdtempSync(path.join(dir, 'ws-'))),
      model: 'gemini-test',
      approvalMode: 'default' as const,
      maxTurns: 5,
      modelRetryInitialMs: 100,
    };
    const handle = await startPrompt(env.client, input, { taskQueue, workflowId: `ask-kill-${Date.now()}` });
    const callId = await waitForQuestion(env.client, handle.workflowId);
    first.kill('SIGKILL');
    await exited(first);

    second = spawnWorker(workerEnv);
    expect(await waitForQuestion(env.client, handle.workflowId)).toBe(callId);
    await handle.signal(answerQuestionSignal, { callId, answers: ['Postgres', '5432'] });
    const result = (await handle.result()) as PromptResult;
    expect(result.response).toBe('Using Postgres.');
    expect(fake.requests).toHaveLength(2);
    expect(JSON.stringify(fake.requests[1].body)).toContain(
      JSON.stringify(JSON.stringify({ answers: { '0': 'Postgres', '1': '5432' } })),
    );
  } finally {
    for (const worker of [first, second]) {
      if (!worker) continue;
      worker.kill('SIGTERM');
      await exited(worker);
    }
    await fake.close();
  }
});

async function waitForQuestion(client: Client, workflowId: string): Promise<string> {
  for (let i = 0; i < 300; i++) {
    const status = await client.workflow
      .getHandle(workflowId)
      .query(statusQuery)
      .catch(() => undefined);
    if (status?.pendingQuestions?.length) return status.pendingQuestions[0].callId;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the question never became pending');
}
