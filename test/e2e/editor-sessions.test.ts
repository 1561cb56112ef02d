import * as fs from 'node:fs';
import * as path from 'node:path';
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import {
  AgentClient,
  InputError,
  newSessionDefaults,
  sessionSettings,
  type ListedSession,
  type PromptRequest,
} from '../../src/client';
import { loadConfig } from '../../src/config';
import type { AgentEvent } from '../../src/core/events';
import { createLogger } from '../../src/logger';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, type Harness } from '../helpers/agent-harness';
import { promptResultOnceStarted, untilSessionIdle } from '../helpers/session-prompts';

/**
 * What an editor's session calls need from the one client (src/client.ts): a directory's sessions
 * newest first with titles, a session's prompts in order with the one running now, each prompt's
 * whole record from its first event, and closing. Real dev server, worker and fake Gemini server.
 */
let h: Harness;
let client: AgentClient;
const config = () => loadConfig({ DURABLE_AGENT_HOME: path.dirname(h.storeDir), TEMPORAL_ADDRESS: h.env.address });
const warnings = { stderr: { write: () => true } };
beforeAll(async () => {
  h = await createHarness('editor-sessions');
  client = new AgentClient(h.env.client, {
    config: config(),
    taskQueue: h.taskQueue,
    logger: createLogger('silent'),
    warnings,
  });
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

let sessions = 0;
async function newSession(workspace: string, approvalMode: PromptRequest['approvalMode'] = 'yolo') {
  const request: PromptRequest = {
    prompt: 'unused',
    workspace,
    approvalMode,
    model: 'gemini-test-model',
    maxTurns: 10,
    detach: false,
    fakeResponses: { path: 'unused: the harness serves the script', strict: true },
  };
  const defaults = await newSessionDefaults(
    config(),
    client.temporal,
    sessionSettings(config(), request),
    {},
    warnings,
  );
  const id = `editor-sessions-${Date.now()}-${++sessions}`;
  return { id, send: (text: string) => client.send(id, text, defaults) };
}

async function record(promptId: string): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const item of client.follow(promptId, { cursor: 0 })) if (item.kind === 'event') events.push(item.event);
  return events;
}

/** Visibility lags the server by a moment: asks again until `ready` holds. */
async function listedUntil(workspace: string, ready: (listed: ListedSession[]) => boolean): Promise<ListedSession[]> {
  for (let i = 0; ; i++) {
    const listed = await client.sessions(workspace);
    if (ready(listed) || i >= 100) return listed;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const todos = [{ description: 'write a.txt', status: 'in_progress' }];

test('a finished session: its prompts in order, each one’s whole record from cursor 0, the answer included', async () => {
  h.fake.load([
    functionCallResponse([{ name: 'write_todos', args: { todos } }]),
    functionCallResponse([{ name: 'write_file', args: { file_path: 'a.txt', content: 'A' } }]),
    textResponse('Wrote a.txt as planned.'),
    textResponse('The second answer.'),
  ]);
  const ws = h.workspace();
  const session = await newSession(ws);
  const first = await session.send('plan and write a.txt\nwith details');
  const second = await session.send('and then?');
  await promptResultOnceStarted(client.temporal, second);
  await untilSessionIdle(client.temporal, session.id);
  const found = await client.session(session.id);
  expect(found).toEqual({
    sessionId: session.id,
    workspace: ws,
    approvalMode: 'yolo',
    model: 'gemini-test-model',
    open: true,
    prompts: [
      { promptId: first, state: 'ended' },
      { promptId: second, state: 'ended' },
    ],
  });
  const events = await record(first);
  expect(events[0]).toMatchObject({ type: 'user_prompt', text: 'plan and write a.txt\nwith details' });
  expect(events.map((e) => e.type)).toEqual(
    expect.arrayContaining(['tool_call_request', 'todos', 'tool_call_response', 'content']),
  );
  expect(events.filter((e) => e.type === 'tool_call_response')).toHaveLength(2);
  expect(events.filter((e) => e.type === 'content').map((e) => (e as { text: string }).text)).toEqual([
    'Wrote a.txt as planned.',
  ]);
  const later = await record(second);
  expect(later[0]).toMatchObject({ type: 'user_prompt', text: 'and then?' });
  expect(later.find((e) => e.type === 'content')).toMatchObject({ text: 'The second answer.' });
  expect(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8')).toBe('A');
  await client.closeSession(session.id);
});

test('a running prompt and a queued one; closing lets the queued one run, then the session ends', async () => {
  h.fake.load([
    functionCallResponse([{ name: 'write_file', args: { file_path: 'b.txt', content: 'B' } }]),
    textResponse('b.txt written.'),
    textResponse('Queued answer.'),
  ]);
  const ws = h.workspace();
  const session = await newSession(ws, 'default');
  const first = await session.send('write b.txt');
  const second = await session.send('the queued one');
  let callId = '';
  for await (const item of client.follow(first)) {
    if (item.kind !== 'event' || item.event.type !== 'tool_call_awaiting_approval') continue;
    callId = item.event.callId;
    break;
  }
  const state = await client.state(first);
  expect(state?.pendingApprovals.map((c) => c.callId)).toEqual([callId]);
  expect(state?.eventCount).toBeGreaterThan(1);
  expect(await client.session(session.id)).toMatchObject({
    open: true,
    running: first,
    prompts: [
      { promptId: first, state: 'running' },
      { promptId: second, state: 'queued', text: 'the queued one' },
    ],
  });
  await client.closeSession(session.id);
  expect((await client.session(session.id)).open).toBe(false);
  await client.approve(first, callId);
  expect((await promptResultOnceStarted(client.temporal, second)).response).toBe('Queued answer.');
  await client.temporal.workflow.getHandle(session.id).result();
  expect(await client.session(session.id)).toEqual({
    sessionId: session.id,
    workspace: ws,
    approvalMode: 'default',
    model: 'gemini-test-model',
    open: false,
    prompts: [
      { promptId: first, state: 'ended' },
      { promptId: second, state: 'ended' },
    ],
  });
});

test('a directory’s sessions, most recently active first, titled by their first prompt’s first line', async () => {
  h.fake.load([textResponse('one'), textResponse('two'), textResponse('three'), textResponse('elsewhere')]);
  const ws = h.workspace();
  const older = await newSession(ws);
  await promptResultOnceStarted(client.temporal, await older.send('\n  fix the parser  \nsecond line'));
  const newer = await newSession(ws);
  await promptResultOnceStarted(client.temporal, await newer.send('add tests'));
  await promptResultOnceStarted(client.temporal, await newer.send('and docs'));
  const other = await newSession(h.workspace());
  await promptResultOnceStarted(client.temporal, await other.send('not this directory'));
  // The older session becomes the most recently active: a closed session lists too, as closed.
  await client.closeSession(older.id);
  await client.temporal.workflow.getHandle(older.id).result();
  const listed = await listedUntil(ws, (l) => l.length === 2 && l[0].sessionId === older.id);
  expect(listed).toEqual([
    { sessionId: older.id, workspace: ws, title: 'fix the parser', updatedAt: expect.any(String), open: false },
    { sessionId: newer.id, workspace: ws, title: 'add tests', updatedAt: expect.any(String), open: true },
  ]);
  expect(listed[0].updatedAt > listed[1].updatedAt).toBe(true);
  expect(new Date(listed[0].updatedAt).toISOString()).toBe(listed[0].updatedAt);
  // The same directory through a symlink is the same directory.
  const link = path.join(path.dirname(ws), `link-${path.basename(ws)}`);
  fs.symlinkSync(ws, link);
  expect((await client.sessions(link)).map((s) => s.sessionId)).toEqual([older.id, newer.id]);
  expect((await client.sessions()).map((s) => s.sessionId)).toEqual(expect.arrayContaining([other.id, newer.id]));
  await client.closeSession(newer.id);
  await client.closeSession(other.id);
});

test('bad ids: no such session, and a prompt is no session', async () => {
  await expect(client.session('no-such-session')).rejects.toThrow(new InputError('no session no-such-session'));
  h.fake.load([textResponse('alone')]);
  const session = await newSession(h.workspace());
  const promptId = await session.send('hi');
  await promptResultOnceStarted(client.temporal, promptId);
  await expect(client.session(promptId)).rejects.toThrow(`${promptId} is not a session`);
  expect(await client.sessions(path.join(h.workspace(), 'missing'))).toEqual([]);
  await client.closeSession(session.id);
});
