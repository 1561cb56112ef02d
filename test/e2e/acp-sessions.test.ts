/**
 * Sessions that outlive the editor, driven as an editor drives them: `durable-agent acp` (the built
 * binary) as a child process on real stdio with the ACP library's own client, the jest dev server,
 * worker processes and the fake Gemini server. Processes are SIGKILLed as a crash kills them.
 * Run `npm run build` first: the binary runs `dist/`.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PromptResponse, RequestError } from '@agentclientprotocol/sdk';
import { hasPollers, sessionStatus } from '../../src/client';
import { FakeGeminiServer, functionCallResponse, textResponse, type ScriptLine } from '../../src/fake-gemini';
import { statusQuery, type PromptResult } from '../../src/workflows/api';
import { messageText, permissionAsked, spawnAcp, type AcpEditor } from '../helpers/acp';
import { BIN, createSandbox, eventually, killAllCli, type CliProcess, type Sandbox } from '../helpers/cli';
import { promptResultOnceStarted } from '../helpers/session-prompts';
import { closeTestEnv, getTestEnv, TEST_ENV_VARS } from '../helpers/temporal-env';

jest.setTimeout(240_000);

const FILE_LIFETIME_MS = 30 * 60_000;
const sharedAddress = () => process.env[TEST_ENV_VARS.address] as string;
const editors: AcpEditor[] = [];
/** Processes a test started for itself (a worker it kills, and the one that replaces it). */
const ownProcesses: CliProcess[] = [];
const ownHomes: string[] = [];
const running = (e: AcpEditor) => e.child.exitCode === null && e.child.signalCode === null;
afterEach(async () => {
  await Promise.all(editors.splice(0).map((e) => (running(e) ? e.close() : undefined)));
  const own = ownProcesses.splice(0);
  for (const cli of own) cli.kill('SIGKILL');
  await Promise.all(own.map((cli) => cli.done));
});

interface Setup {
  box: Sandbox;
  env: Record<string, string>;
  fake: FakeGeminiServer;
  worker: CliProcess;
}

/**
 * One fake Gemini server and one worker process for the file, on a queue of their own: the tests
 * kill `acp` processes, not them. A test that kills its worker starts one of its own (`ownWorker`),
 * in a home of its own.
 * Each test loads its own script and works in a directory of its own, so its sessions are its own.
 */
let shared: Setup;
beforeAll(async () => {
  const fake = await FakeGeminiServer.start({ script: [] });
  const box = createSandbox('acp-sessions', sharedAddress());
  const env = { GOOGLE_GEMINI_BASE_URL: fake.url, DURABLE_AGENT_TASK_QUEUE: `acp-sessions-${Date.now()}` };
  shared = { box, env, fake, worker: await pollingWorker(box, env) };
});
afterAll(async () => {
  await shared?.fake.close();
  await killAllCli([...(shared ? [shared.box.home] : []), ...ownHomes]);
  await closeTestEnv();
});

/** A worker process polling `env`'s queue. */
async function pollingWorker(box: Sandbox, env: Record<string, string>): Promise<CliProcess> {
  // It lives as long as its test or the file, past the helper's default timeout for a command.
  const worker = box.start(['worker'], { env, timeoutMs: FILE_LIFETIME_MS });
  // Polling before an editor starts `acp`: it then runs no worker of its own, and killing it kills no worker.
  const { client } = await getTestEnv();
  await eventually(() => hasPollers(client, env.DURABLE_AGENT_TASK_QUEUE), 60_000, 'a worker polling');
  return worker;
}

/** The file's fake server answering `script`, a workspace of the test's own, and the shared worker (or its own). */
async function setUp(name: string, script: ScriptLine[], ownWorker = false): Promise<Setup> {
  const { box, fake } = shared;
  fake.load(script);
  const workspace = fs.mkdtempSync(path.join(box.dir, `${name}-`));
  if (!ownWorker) return { ...shared, box: { ...box, workspace } };
  // A home of its own too: its worker and what that worker spawns are killed without touching the shared one.
  const own = createSandbox(name, sharedAddress());
  ownHomes.push(own.home);
  const env = { ...shared.env, DURABLE_AGENT_TASK_QUEUE: `acp-${name}-${Date.now()}` };
  const worker = await pollingWorker(own, env);
  ownProcesses.push(worker);
  return { box: own, env, fake, worker };
}

async function editorOf(s: Setup): Promise<AcpEditor> {
  const editor = await spawnAcp(s.box, s.env);
  editors.push(editor);
  return editor;
}

const text = (t: string) => [{ type: 'text' as const, text: t }];
const allowOnce: AcpEditor['answer'] = async (request) => ({
  outcome: { outcome: 'selected', optionId: request.options[0].optionId },
});

async function promptResult(promptId: string): Promise<PromptResult> {
  return promptResultOnceStarted((await getTestEnv()).client, promptId);
}

function userText(editor: AcpEditor, sessionId: string): string[] {
  return editor
    .updatesOf(sessionId, 'user_message_chunk')
    .map((u) => (u.content.type === 'text' ? u.content.text : ''));
}

/** The agent's JSON-RPC answer to one raw request after `initialize`, read off its standard output. */
async function rawAnswer(s: Setup, request: { method: string; params: unknown }): Promise<unknown> {
  const child = spawn(process.execPath, [BIN, 'acp'], { cwd: s.box.dir, env: s.box.env(s.env), stdio: 'pipe' });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const send = (id: number, method: string, params: unknown) =>
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
  const answer = (id: number) =>
    eventually(
      () => out.split('\n').flatMap((line) => (line.includes(`"id":${id}`) ? [JSON.parse(line) as unknown] : []))[0],
      60_000,
      `answer ${id}`,
    );
  try {
    send(1, 'initialize', { protocolVersion: 1, clientCapabilities: {} });
    await answer(1);
    send(2, request.method, request.params);
    return await answer(2);
  } finally {
    child.kill('SIGKILL');
  }
}

test('`acp` SIGKILLed mid-prompt: the prompt finishes without it; a new `acp` lists the session and load replays it all', async () => {
  const s = await setUp('acp-killed', [
    functionCallResponse({ name: 'list_directory', args: { dir_path: '.' } }),
    textResponse('The answer, finished while no editor was attached.', { delayMs: 3000 }),
  ]);
  fs.writeFileSync(path.join(s.box.workspace, 'notes.md'), 'notes\n');
  const first = await editorOf(s);
  const { sessionId } = await first.connection.agent.request('session/new', { cwd: s.box.workspace, mcpServers: [] });
  void first.connection.agent
    .request('session/prompt', { sessionId, prompt: text('look around\nand answer') })
    .catch(() => undefined);
  await eventually(() => first.updatesOf(sessionId, 'tool_call').length > 0, 60_000, 'the first tool call');
  first.child.kill('SIGKILL');
  const result = await promptResult(`${sessionId}-p1`);
  expect(result.response).toBe('The answer, finished while no editor was attached.');
  expect(messageText(first, sessionId)).toBe('');

  const second = await editorOf(s);
  const listed = await second.connection.agent.request('session/list', { cwd: s.box.workspace });
  expect(listed.sessions).toEqual([
    { sessionId, cwd: fs.realpathSync(s.box.workspace), title: 'look around', updatedAt: expect.any(String) },
  ]);
  const loaded = await second.connection.agent.request('session/load', {
    sessionId,
    cwd: s.box.workspace,
    mcpServers: [],
  });
  expect(loaded.modes?.currentModeId).toBe('default');
  // All of it came before the load's response: the user's message, the call and its end, the answer.
  expect(userText(second, sessionId)).toEqual(['look around\nand answer']);
  const [call] = second.updatesOf(sessionId, 'tool_call');
  expect(call).toMatchObject({ title: 'list_directory: .', kind: 'search' });
  expect(second.updatesOf(sessionId, 'tool_call_update')).toMatchObject([
    { toolCallId: call.toolCallId, status: 'completed' },
  ]);
  expect(messageText(second, sessionId)).toBe('The answer, finished while no editor was attached.');
  // The loaded session takes the next prompt.
  s.fake.load([textResponse('A second answer.')]);
  const next: PromptResponse = await second.connection.agent.request('session/prompt', {
    sessionId,
    prompt: text('and then?'),
  });
  expect(next.stopReason).toBe('end_turn');
  expect(messageText(second, sessionId)).toBe('The answer, finished while no editor was attached.A second answer.');
});

test('the worker SIGKILLed mid tool call under an attached editor: the call ends "outcome unknown", the prompt completes once', async () => {
  const command = 'echo $PPID > spawner.pid; echo $$ > command.pid; sleep 120';
  const s = await setUp(
    'worker-killed',
    [
      functionCallResponse({ name: 'run_shell_command', args: { command } }),
      textResponse('Checked what the interrupted command did.'),
    ],
    true,
  );
  const editor = await editorOf(s);
  const { sessionId } = await editor.connection.agent.request('session/new', { cwd: s.box.workspace, mcpServers: [] });
  await editor.connection.agent.request('session/set_mode', { sessionId, modeId: 'yolo' });
  const prompt: Promise<PromptResponse> = editor.connection.agent.request('session/prompt', {
    sessionId,
    prompt: text('run it'),
  });
  const pidFile = (name: string) => path.join(s.box.workspace, name);
  await eventually(() => fs.existsSync(pidFile('command.pid')), 60_000, 'the command to start');
  // The machine's crash: the worker, the spawner that outlives a worker, and the command, all at once.
  s.worker.kill('SIGKILL');
  await s.worker.done;
  for (const name of ['spawner.pid', 'command.pid'])
    process.kill(Number(fs.readFileSync(pidFile(name), 'utf8')), 'SIGKILL');
  ownProcesses.push(s.box.start(['worker'], { env: s.env }));
  expect((await prompt).stopReason).toBe('end_turn');
  const calls = editor.updatesOf(sessionId, 'tool_call');
  expect(calls).toHaveLength(1);
  const ends = editor
    .updatesOf(sessionId, 'tool_call_update')
    .filter((u) => u.toolCallId === calls[0].toolCallId && (u.status === 'failed' || u.status === 'completed'));
  expect(ends).toMatchObject([
    { status: 'failed', content: [{ content: { text: expect.stringContaining('Outcome unknown') } }] },
  ]);
  expect(messageText(editor, sessionId)).toBe('Checked what the interrupted command did.');
  // The model was asked once for the call and once after its response: nothing was asked twice.
  expect(s.fake.requests.filter((r) => r.method === 'generateContentStream')).toHaveLength(2);
});

test('an approval pending when the editor disconnects is asked again of the next editor that loads the session', async () => {
  const s = await setUp('approval-again', [
    functionCallResponse({ name: 'write_file', args: { file_path: 'kept.txt', content: 'kept\n' } }),
    textResponse('Wrote kept.txt.'),
  ]);
  const first = await editorOf(s);
  const { sessionId } = await first.connection.agent.request('session/new', { cwd: s.box.workspace, mcpServers: [] });
  void first.connection.agent
    .request('session/prompt', { sessionId, prompt: text('keep a note') })
    .catch(() => undefined);
  const asked = await permissionAsked(first);
  const callId = asked.request.toolCall.toolCallId;
  await first.close();
  // The call waits in the prompt, durably, for whoever answers.
  const promptId = `${sessionId}-p1`;
  const handle = (await getTestEnv()).client.workflow.getHandle(promptId);
  expect((await handle.query(statusQuery)).pendingApprovals.map((c) => c.callId)).toEqual([callId]);

  const second = await editorOf(s);
  second.answer = allowOnce;
  await second.connection.agent.request('session/load', { sessionId, cwd: s.box.workspace, mcpServers: [] });
  const again = await permissionAsked(second);
  expect(again.request.toolCall).toMatchObject({ toolCallId: callId, kind: 'edit', title: 'write_file: kept.txt' });
  expect((await promptResult(promptId)).response).toBe('Wrote kept.txt.');
  expect(fs.readFileSync(path.join(s.box.workspace, 'kept.txt'), 'utf8')).toBe('kept\n');
  await eventually(() => messageText(second, sessionId) === 'Wrote kept.txt.', 60_000, 'the answer in the editor');
  expect(userText(second, sessionId)).toEqual(['keep a note']);
  expect(second.updatesOf(sessionId, 'tool_call').map((u) => u.toolCallId)).toEqual([callId]);
  expect(second.asked).toHaveLength(1);
});

test('resume follows a running prompt from now, without replaying what came before', async () => {
  const s = await setUp('resume', [
    textResponse('Earlier answer.'),
    functionCallResponse({ name: 'write_file', args: { file_path: 'later.txt', content: 'later\n' } }),
    textResponse('Later answer.'),
  ]);
  const first = await editorOf(s);
  const { sessionId } = await first.connection.agent.request('session/new', { cwd: s.box.workspace, mcpServers: [] });
  await first.connection.agent.request('session/prompt', { sessionId, prompt: text('earlier') });
  void first.connection.agent.request('session/prompt', { sessionId, prompt: text('later') }).catch(() => undefined);
  await permissionAsked(first);
  first.child.kill('SIGKILL');

  const second = await editorOf(s);
  second.answer = allowOnce;
  await second.connection.agent.request('session/resume', { sessionId, cwd: s.box.workspace });
  await permissionAsked(second);
  await eventually(() => messageText(second, sessionId) === 'Later answer.', 60_000, 'the later answer');
  expect(userText(second, sessionId)).toEqual([]);
  // Only the call still open is announced, so its end refers to a call the editor knows.
  expect(second.updatesOf(sessionId, 'tool_call').map((u) => u.title)).toEqual(['write_file: later.txt']);
  expect(messageText(second, sessionId)).not.toContain('Earlier answer.');
  expect(fs.readFileSync(path.join(s.box.workspace, 'later.txt'), 'utf8')).toBe('later\n');
});

test('a mode set in an editor attached to a session holds for the prompts queued after the running one', async () => {
  const s = await setUp(
    'attached-mode',
    [
      functionCallResponse({ name: 'run_shell_command', args: { command: 'echo one' } }),
      textResponse('one done'),
      // Slow enough that the editor, following the queued prompt from its start, sets its mode before the call.
      functionCallResponse({ name: 'run_shell_command', args: { command: 'echo two' } }, { delayMs: 5000 }),
      textResponse('two done'),
    ],
    true,
  );
  const first = await editorOf(s);
  const { sessionId } = await first.connection.agent.request('session/new', { cwd: s.box.workspace, mcpServers: [] });
  void first.connection.agent.request('session/prompt', { sessionId, prompt: text('one') }).catch(() => undefined);
  await permissionAsked(first);
  // A second message, queued behind the running prompt from the command line.
  ownProcesses.push(s.box.start(['run', '--session', sessionId, 'two'], { env: s.env }));
  const { client } = await getTestEnv();
  await eventually(async () => (await sessionStatus(client, sessionId))?.queued.length === 1, 60_000, 'two queued');
  first.child.kill('SIGKILL');

  const second = await editorOf(s);
  await second.connection.agent.request('session/resume', { sessionId, cwd: s.box.workspace });
  const asked = await permissionAsked(second);
  await second.connection.agent.request('session/set_mode', { sessionId, modeId: 'yolo' });
  // The running prompt's call is let go whichever way yolo treats a call already waiting.
  if (!asked.withdrawn)
    await s.box.run(['approve', `${sessionId}-p1`, asked.request.toolCall.toolCallId], { env: s.env });
  await eventually(
    () => messageText(second, sessionId).includes('two done') || second.asked.length > 1,
    60_000,
    'the queued prompt to end or ask',
  );
  // The queued prompt ran in the mode the editor shows: its call was not asked.
  expect(second.asked).toHaveLength(1);
  expect(messageText(second, sessionId)).toContain('two done');
});

test('bad input: unknown sessions, another directory’s session, bad cursors and paths get JSON-RPC errors; nothing is lost', async () => {
  const s = await setUp('bad-input', [textResponse('Still here.'), textResponse('And still answering.')]);
  const editor = await editorOf(s);
  const agent = editor.connection.agent;
  const { sessionId } = await agent.request('session/new', { cwd: s.box.workspace, mcpServers: [] });
  await agent.request('session/prompt', { sessionId, prompt: text('first') });
  const cwd = s.box.workspace;
  const failure = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      (err: unknown) => err as RequestError,
    );
  for (const call of [
    agent.request('session/load', { sessionId: 'no-such-session', cwd, mcpServers: [] }),
    agent.request('session/resume', { sessionId: 'no-such-session', cwd }),
  ])
    expect(await failure(call)).toMatchObject({ code: -32002, data: { sessionId: 'no-such-session' } });
  // The library's client takes "not found" for a close as closed, as ACP recommends: the wire shows the error.
  await agent.request('session/close', { sessionId: 'no-such-session' });
  expect(await rawAnswer(s, { method: 'session/close', params: { sessionId: 'no-such-session' } })).toMatchObject({
    error: { code: -32002, data: { sessionId: 'no-such-session' } },
  });
  const elsewhere = fs.mkdtempSync(path.join(path.dirname(cwd), 'elsewhere-'));
  const wrongDir = await failure(agent.request('session/load', { sessionId, cwd: elsewhere, mcpServers: [] }));
  expect(wrongDir).toMatchObject({ code: -32602 });
  expect(wrongDir?.message).toContain(`works in ${fs.realpathSync(cwd)}`);
  expect(await failure(agent.request('session/list', { cursor: 'not-ours' }))).toMatchObject({ code: -32602 });
  expect(await failure(agent.request('session/list', { cwd: 'relative/dir' }))).toMatchObject({ code: -32602 });
  expect(await failure(agent.request('session/load', { sessionId, cwd: 'relative', mcpServers: [] }))).toMatchObject({
    code: -32602,
  });
  // Nothing was lost: the session loads in its own directory and takes the next prompt.
  await agent.request('session/load', { sessionId, cwd, mcpServers: [] });
  const next: PromptResponse = await agent.request('session/prompt', { sessionId, prompt: text('second') });
  expect(next.stopReason).toBe('end_turn');
  expect(messageText(editor, sessionId)).toContain('And still answering.');
  await agent.request('session/close', { sessionId });
  await (await getTestEnv()).client.workflow.getHandle(sessionId).result();
  // Closing again is no error: the session is closed.
  await agent.request('session/close', { sessionId });
});
