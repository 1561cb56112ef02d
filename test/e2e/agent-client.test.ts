import * as fs from 'node:fs';
import * as path from 'node:path';
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import {
  AgentClient,
  InputError,
  sessionSettings,
  newSessionDefaults,
  WorkflowUpdateFailedError,
  type PromptRequest,
} from '../../src/client';
import { loadConfig } from '../../src/config';
import type { AgentEvent } from '../../src/core/events';
import { createLogger } from '../../src/logger';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, type Harness } from '../helpers/agent-harness';

/**
 * The one client every front end uses (src/client.ts): a request becomes a started prompt, the
 * prompt is followed as an async iterator, and its calls are approved or denied, all through
 * `AgentClient` on the test server with the fake Gemini server behind the worker.
 */
let h: Harness;
let client: AgentClient;
beforeAll(async () => {
  h = await createHarness('agent-client');
  // The harness's store and live stream sit under one directory: that directory is the client's home.
  const config = loadConfig({ DURABLE_AGENT_HOME: path.dirname(h.storeDir), TEMPORAL_ADDRESS: h.env.address });
  const warnings = { stderr: { write: () => true } };
  client = new AgentClient(h.env.client, { config, taskQueue: h.taskQueue, logger: createLogger('silent'), warnings });
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

function request(workspace: string, prompt = 'write b.txt'): PromptRequest {
  const fakeResponses = { path: 'unused: the harness serves the script', strict: true };
  return {
    prompt,
    workspace,
    approvalMode: 'default',
    model: 'gemini-test-model',
    maxTurns: 10,
    detach: false,
    fakeResponses,
  };
}

const writeB = functionCallResponse([{ name: 'write_file', args: { file_path: 'b.txt', content: 'from the client' } }]);

test('start, follow as an iterator, approve: the call runs and the prompt completes', async () => {
  h.fake.load([writeB, textResponse('written')]);
  const ws = h.workspace();
  const { promptId, input } = await client.start(request(ws));
  expect(input).toMatchObject({ workspace: ws, approvalMode: 'default', hostIsLocal: expect.any(Boolean) });
  const seen: AgentEvent['type'][] = [];
  let text = '';
  for await (const item of client.follow(promptId)) {
    if (item.kind === 'piece') continue;
    seen.push(item.event.type);
    if (item.event.type === 'content') text += item.event.text;
    if (item.event.type === 'tool_call_awaiting_approval') await client.approve(promptId, item.event.callId);
  }
  expect(seen).toEqual(expect.arrayContaining(['tool_call_awaiting_approval', 'tool_call_response', 'content']));
  expect(text).toContain('written');
  expect((await client.status(promptId)).status).toBe('completed');
  expect(fs.readFileSync(path.join(ws, 'b.txt'), 'utf8')).toBe('from the client');
});

test('deny: the call does not run, and a second answer to it is refused', async () => {
  h.fake.load([writeB, textResponse('not written')]);
  const ws = h.workspace();
  const { promptId } = await client.start(request(ws));
  for await (const item of client.follow(promptId)) {
    if (item.kind !== 'event' || item.event.type !== 'tool_call_awaiting_approval') continue;
    const { callId } = item.event;
    await client.deny(promptId, callId, 'not now');
    await expect(client.approve(promptId, callId)).rejects.toBeInstanceOf(WorkflowUpdateFailedError);
  }
  expect((await client.status(promptId)).status).toBe('completed');
  expect(fs.existsSync(path.join(ws, 'b.txt'))).toBe(false);
});

test('follow from a cursor yields only the events after it', async () => {
  h.fake.load([textResponse('one answer')]);
  const { promptId } = await client.start({ ...request(h.workspace()), approvalMode: 'yolo' });
  const all: AgentEvent[] = [];
  for await (const item of client.follow(promptId)) if (item.kind === 'event') all.push(item.event);
  const later: AgentEvent[] = [];
  for await (const item of client.follow(promptId, { cursor: 2 })) if (item.kind === 'event') later.push(item.event);
  expect(later).toEqual(all.slice(2));
});

test('a session: its first message starts it, its prompt is followed, and it is found as the latest', async () => {
  h.fake.load([textResponse('hello from the session')]);
  const ws = h.workspace();
  const sessionId = `agent-client-session-${Date.now()}`;
  const config = loadConfig({ DURABLE_AGENT_HOME: path.dirname(h.storeDir), TEMPORAL_ADDRESS: h.env.address });
  const settings = sessionSettings(config, { ...request(ws), approvalMode: 'yolo' });
  const warnings = { stderr: { write: () => true } };
  const defaults = await newSessionDefaults(config, client.temporal, settings, {}, warnings);
  const promptId = await client.send(sessionId, 'hi', defaults);
  const texts: string[] = [];
  for await (const item of client.follow(promptId))
    if (item.kind === 'event' && item.event.type === 'content') texts.push(item.event.text);
  expect(texts.join('')).toContain('hello from the session');
  expect(await client.latestSession(ws)).toBe(sessionId);
  await client.closeSession(sessionId);
});

test('bad requests are refused before anything starts', async () => {
  const ws = h.workspace();
  await expect(client.start(request(ws, '   '))).rejects.toThrow(InputError);
  await expect(client.start(request(path.join(ws, 'missing')))).rejects.toThrow(/is not a directory/);
  await expect(client.start({ ...request(ws), model: 'no spaces allowed' })).rejects.toThrow(/is not a model name/);
  await expect(client.start({ ...request(ws), maxTurns: 0 })).rejects.toThrow(/--max-turns/);
  await expect(client.start({ ...request(ws), resume: 'no-such-session' })).rejects.toThrow(
    /no session no-such-session/,
  );
});
