/**
 * `durable-agent acp` driven as an editor drives it: the built binary as a child process on real
 * stdio, the ACP library's own client, the jest dev server, a worker process and the fake Gemini
 * server. Run `npm run build` first: the binary runs `dist/`.
 */
import * as fs from 'node:fs';
import type { ContentBlock } from '@agentclientprotocol/sdk';
import * as path from 'node:path';
import {
  FakeGeminiServer,
  functionCallResponse,
  streamLine,
  textResponse,
  type ScriptLine,
} from '../../src/fake-gemini';
import { messageText, permissionAsked, spawnAcp, type AcpEditor } from '../helpers/acp';
import { createSandbox, eventually, expectExit, killAllCli, type Sandbox } from '../helpers/cli';
import { hasPollers } from '../../src/client';
import { closeTestEnv, getTestEnv, TEST_ENV_VARS } from '../helpers/temporal-env';

jest.setTimeout(180_000);

const FILE_LIFETIME_MS = 30 * 60_000;
const sharedAddress = () => process.env[TEST_ENV_VARS.address] as string;

/**
 * One worker, one fake Gemini server and one `acp` process for the whole file: no test here kills
 * them. Each test loads its own script, works in a directory of its own and opens its own session,
 * so what one test sees (updates, permission requests) is told apart by session, or reset.
 */
let shared: { box: Sandbox; env: Record<string, string>; editor: AcpEditor; fake: FakeGeminiServer };
let leaveOpen: AcpEditor['answer'];
beforeAll(async () => {
  const fake = await FakeGeminiServer.start({ script: [] });
  const box = createSandbox('acp', sharedAddress());
  const env = { GOOGLE_GEMINI_BASE_URL: fake.url, DURABLE_AGENT_TASK_QUEUE: `acp-${Date.now()}` };
  // It lives as long as the file, past the helper's default timeout for a command.
  box.start(['worker'], { env, timeoutMs: FILE_LIFETIME_MS });
  // The worker polls before the editor starts: otherwise `acp` would run one of its own.
  const { client } = await getTestEnv();
  await eventually(() => hasPollers(client, env.DURABLE_AGENT_TASK_QUEUE), 60_000, 'the worker polling');
  shared = { box, env, fake, editor: await spawnAcp(box, env) };
  leaveOpen = shared.editor.answer;
});
afterAll(async () => {
  await shared?.editor?.close();
  await shared?.fake.close();
  await killAllCli(shared ? [shared.box.home] : []);
  await closeTestEnv();
});

/** The shared editor with the fake server answering `script`, and a workspace of the test's own. */
async function setUp(name: string, script: ScriptLine[]) {
  const { box, env, editor, fake } = shared;
  fake.load(script);
  editor.asked.length = 0;
  editor.answer = leaveOpen;
  const workspace = fs.mkdtempSync(path.join(box.dir, `${name}-`));
  return { box: { ...box, workspace }, env, editor, fake };
}

async function newSession(editor: AcpEditor, box: Sandbox) {
  return editor.connection.agent.request('session/new', { cwd: box.workspace, mcpServers: [] });
}

const GATED = 'while [ ! -f go ]; do sleep 0.1; done; echo from-shell';
const text = (t: string): ContentBlock[] => [{ type: 'text', text: t }];

test('a prompt streams its answer, a plan and an edit as a diff; the edit asked in the editor; end_turn', async () => {
  const todos = [{ description: 'write the greeting', status: 'in_progress' }];
  const { box, editor } = await setUp('stream', [
    functionCallResponse({ name: 'write_todos', args: { todos } }),
    functionCallResponse({ name: 'write_file', args: { file_path: 'hello.txt', content: 'hi\n' } }),
    streamLine([
      { candidates: [{ content: { role: 'model', parts: [{ text: 'Wrote ' }] }, index: 0 }] },
      { candidates: [{ content: { role: 'model', parts: [{ text: 'hello.txt.' }] }, finishReason: 'STOP', index: 0 }] },
    ]),
  ]);
  const session = await newSession(editor, box);
  expect(session.modes?.availableModes.map((m) => m.id)).toEqual(['default', 'auto_edit', 'yolo', 'plan']);
  expect(session.configOptions?.[0]).toMatchObject({ id: 'model', category: 'model', currentValue: 'auto' });
  editor.answer = async (request) => ({ outcome: { outcome: 'selected', optionId: request.options[0].optionId } });
  const response = await editor.connection.agent.request('session/prompt', {
    sessionId: session.sessionId,
    prompt: text('greet in hello.txt'),
  });
  expect(response.stopReason).toBe('end_turn');
  expect(fs.readFileSync(path.join(box.workspace, 'hello.txt'), 'utf8')).toBe('hi\n');
  expect(messageText(editor, session.sessionId)).toBe('Wrote hello.txt.');
  expect(editor.updatesOf(session.sessionId, 'plan')).toEqual([
    { sessionUpdate: 'plan', entries: [{ content: 'write the greeting', priority: 'medium', status: 'in_progress' }] },
  ]);
  const file = path.join(box.workspace, 'hello.txt');
  const write = editor.updatesOf(session.sessionId, 'tool_call').find((u) => u.kind === 'edit');
  expect(write).toMatchObject({
    title: 'write_file: hello.txt',
    locations: [{ path: file }],
    content: [{ type: 'diff', path: file, oldText: null, newText: 'hi\n' }],
  });
  const ended = editor
    .updatesOf(session.sessionId, 'tool_call_update')
    .filter((u) => u.toolCallId === write!.toolCallId);
  expect(ended).toMatchObject([{ status: 'completed' }]);
  // Asked once, with our options; answered from the editor, so not withdrawn.
  expect(editor.asked).toHaveLength(1);
  expect(editor.asked[0]).toMatchObject({ withdrawn: false, request: { toolCall: { toolCallId: write!.toolCallId } } });
  expect(editor.asked[0].request.options.map((o) => o.optionId)).toEqual(['proceed_once', 'proceed_always', 'cancel']);
  expect(
    editor.updatesOf(session.sessionId, 'available_commands_update')[0].availableCommands.map((c) => c.name),
  ).toEqual(expect.arrayContaining(['status', 'clear', 'compress']));
});

test('a call approved with `durable-agent approve` withdraws the editor’s request and the prompt completes', async () => {
  const { box, env, editor } = await setUp('withdraw', [
    // The call runs until the test lets it go: the editor's request must be withdrawn before it ends.
    functionCallResponse({ name: 'run_shell_command', args: { command: GATED } }),
    textResponse('ran it'),
  ]);
  const session = await newSession(editor, box);
  const prompt = editor.connection.agent.request('session/prompt', {
    sessionId: session.sessionId,
    prompt: text('run'),
  });
  const asked = await permissionAsked(editor);
  const call = asked.request.toolCall;
  expect(call).toMatchObject({ kind: 'execute', title: `run_shell_command: ${GATED}` });
  const pending = await box.run(['pending'], { env });
  const promptId = pending.stdout.split(/\s+/)[0];
  if (!pending.stdout.includes(call.toolCallId)) throw new Error(`pending: ${pending.stdout} ${pending.stderr}`);
  const approved = await box.run(['approve', promptId!, call.toolCallId], { env });
  expectExit(approved, 0);
  await eventually(() => asked.withdrawn, 60_000, 'the editor’s request withdrawn');
  expect(editor.updatesOf(session.sessionId, 'tool_call_update')).toEqual([]);
  fs.writeFileSync(path.join(box.workspace, 'go'), '');
  expect((await prompt).stopReason).toBe('end_turn');
  expect(messageText(editor, session.sessionId)).toBe('ran it');
  const ended = editor.updatesOf(session.sessionId, 'tool_call_update').find((u) => u.toolCallId === call.toolCallId);
  expect(ended).toMatchObject({
    status: 'completed',
    content: [{ content: { text: expect.stringContaining('from-shell') } }],
  });
});

test('session/cancel ends the running prompt: the open call gets its response, the prompt `cancelled`', async () => {
  const { box, editor } = await setUp('cancel', [
    functionCallResponse({ name: 'run_shell_command', args: { command: 'echo never' } }),
  ]);
  const session = await newSession(editor, box);
  const prompt = editor.connection.agent.request('session/prompt', {
    sessionId: session.sessionId,
    prompt: text('go'),
  });
  const asked = await permissionAsked(editor);
  await editor.connection.agent.notify('session/cancel', { sessionId: session.sessionId });
  expect((await prompt).stopReason).toBe('cancelled');
  expect(asked.withdrawn).toBe(true);
  const ended = editor.updatesOf(session.sessionId, 'tool_call_update');
  expect(ended).toMatchObject([{ toolCallId: asked.request.toolCall.toolCallId, status: 'failed' }]);
});

test('set_mode: yolo before the first prompt, default again after it; each prompt runs in the mode shown', async () => {
  const { box, editor } = await setUp('modes', [
    functionCallResponse({ name: 'run_shell_command', args: { command: 'echo one' } }),
    textResponse('first done'),
    functionCallResponse({ name: 'run_shell_command', args: { command: 'echo two' } }),
    textResponse('second done'),
  ]);
  const session = await newSession(editor, box);
  const sessionId = session.sessionId;
  await editor.connection.agent.request('session/set_mode', { sessionId, modeId: 'yolo' });
  expect(editor.updatesOf(sessionId, 'current_mode_update')).toEqual([
    { sessionUpdate: 'current_mode_update', currentModeId: 'yolo' },
  ]);
  expect((await editor.connection.agent.request('session/prompt', { sessionId, prompt: text('one') })).stopReason).toBe(
    'end_turn',
  );
  expect(editor.asked).toHaveLength(0);
  // Back to default once the session runs: its next prompt asks again.
  await editor.connection.agent.request('session/set_mode', { sessionId, modeId: 'default' });
  editor.answer = async () => ({ outcome: { outcome: 'selected', optionId: 'proceed_once' } });
  expect((await editor.connection.agent.request('session/prompt', { sessionId, prompt: text('two') })).stopReason).toBe(
    'end_turn',
  );
  expect(editor.asked).toHaveLength(1);
  expect(messageText(editor, sessionId)).toBe('first donesecond done');
  const bad = editor.connection.agent.request('session/set_mode', { sessionId, modeId: 'reckless' });
  await expect(bad).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('unknown mode reckless') });
});

test('bad input gets a JSON-RPC error and the agent keeps serving; a second prompt while one runs is refused', async () => {
  const { box, editor } = await setUp('bad', [
    functionCallResponse({ name: 'run_shell_command', args: { command: 'echo ok' } }),
    textResponse('still here'),
  ]);
  editor.writeRaw('{"jsonrpc":"2.0","id":7,"method":');
  await eventually(() => /"code":-32700/.test(editor.stdout()), 30_000, 'the parse error');
  const agent = editor.connection.agent;
  await expect(agent.request('session/prompt', { sessionId: 'nope', prompt: text('hi') })).rejects.toMatchObject({
    code: -32602,
    message: expect.stringContaining('unknown session nope'),
  });
  await expect(agent.request('session/new', { mcpServers: [] } as never)).rejects.toMatchObject({ code: -32602 });
  await expect(agent.request('session/frobnicate', {})).rejects.toMatchObject({ code: -32601 });
  const session = await newSession(editor, box);
  const sessionId = session.sessionId;
  const image = [{ type: 'image' as const, data: 'AAAA', mimeType: 'image/png' }];
  await expect(agent.request('session/prompt', { sessionId, prompt: image })).rejects.toMatchObject({ code: -32602 });
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  editor.answer = async () => {
    await released;
    return { outcome: { outcome: 'selected', optionId: 'proceed_once' } };
  };
  const first = agent.request('session/prompt', { sessionId, prompt: text('go') });
  await permissionAsked(editor);
  await expect(agent.request('session/prompt', { sessionId, prompt: text('again') })).rejects.toMatchObject({
    code: -32600,
    message: expect.stringContaining('a prompt is running'),
  });
  release();
  expect((await first).stopReason).toBe('end_turn');
  expect(messageText(editor, sessionId)).toBe('still here');
  // Standard output carried protocol messages only.
  for (const line of editor.stdout().trim().split('\n')) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
});

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

test('an image in a prompt reaches the model as inline data; a bad image is refused with -32602 and nothing is sent', async () => {
  const { box, editor, fake } = await setUp('image', [textResponse('A single pixel.'), textResponse('still here')]);
  const agent = editor.connection.agent;
  const init = await agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
  expect(init.agentCapabilities?.promptCapabilities?.image).toBe(true);
  const { sessionId } = await newSession(editor, box);
  const image = (data: string, mimeType = 'image/png'): ContentBlock => ({ type: 'image', data, mimeType });
  const bad: [ContentBlock, string][] = [
    [image(PNG, 'image/gif'), 'type image/gif is not supported'],
    [image('not base64!'), 'data is not base64'],
    [image('A'.repeat(28_000_000)), 'over the 20 MB limit'],
  ];
  for (const [block, problem] of bad)
    await expect(
      agent.request('session/prompt', { sessionId, prompt: [...text('what is this?'), block] }),
    ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining(problem) });
  expect(fake.requests.filter((r) => JSON.stringify(r.body).includes('what is this?'))).toEqual([]);
  const response = await agent.request('session/prompt', {
    sessionId,
    prompt: [...text('describe the picture'), image(PNG)],
  });
  expect(response.stopReason).toBe('end_turn');
  // The conversation's request (the model router's has the text only): its user message holds both.
  const lastParts = fake.requests.map((r) => (r.body as { contents?: { parts: unknown[] }[] }).contents?.at(-1)?.parts);
  expect(lastParts).toContainEqual(
    expect.arrayContaining([{ text: 'describe the picture' }, { inlineData: { mimeType: 'image/png', data: PNG } }]),
  );
  // The session goes on: the next prompt is served, the image still in its conversation by reference.
  expect((await agent.request('session/prompt', { sessionId, prompt: text('and now?') })).stopReason).toBe('end_turn');
  expect(messageText(editor, sessionId)).toContain('still here');
});
