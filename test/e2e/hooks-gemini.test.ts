import * as fs from 'node:fs';
import * as path from 'node:path';
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { agentSessionWorkflow } from '../../src/workflows/session-workflow';
import { sendMessageUpdate, statusQuery, toolConfirmationSignal } from '../../src/workflows/api';
import { eventually } from '../helpers/cli';
import { promptResultOnceStarted } from '../helpers/session-prompts';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, maybeRecordHistory, type Harness } from '../helpers/agent-harness';
import { answer, hooksOn, saveAndAnswer } from '../helpers/hook-config';

/** Gemini CLI's hook shapes and timing: BeforeTool `ask`, Notification, PreCompress, SessionStart. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness('hooks-gemini');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

const readJson = (ws: string, file: string) => JSON.parse(fs.readFileSync(path.join(ws, file), 'utf8'));

test('a BeforeTool `ask` makes a yolo call wait for a person; the approval by signal runs it', async () => {
  const ws = h.workspace();
  const handle = await h.start(
    [functionCallResponse({ name: 'write_file', args: { file_path: 'out.txt', content: 'x' } }), textResponse('ok')],
    { workspace: ws, approvalMode: 'yolo', hooks: hooksOn('BeforeTool', [answer({ decision: 'ask' })]) },
  );
  const pending = await eventually(async () => (await handle.query(statusQuery)).pendingApprovals[0], 30_000, 'ask');
  expect(pending).toMatchObject({ name: 'write_file' });
  expect(fs.existsSync(path.join(ws, 'out.txt'))).toBe(false);
  await handle.signal(toolConfirmationSignal, { callId: pending.callId, outcome: 'proceed_once' });
  const run = await h.finish(handle);
  expect(run.result?.response).toBe('ok');
  expect(fs.readFileSync(path.join(ws, 'out.txt'), 'utf8')).toBe('x');
  await maybeRecordHistory(h, run.workflowId, 'hooks-before-tool-ask');
});

test('Notification details are in Gemini CLI confirmation-details shape, with ours beside them', async () => {
  const ws = h.workspace({ 'a.txt': 'one\n' });
  const handle = await h.start(
    [
      functionCallResponse({ name: 'replace', args: { file_path: 'a.txt', old_string: 'one', new_string: 'two' } }),
      functionCallResponse({ name: 'run_shell_command', args: { command: 'echo hi && true' } }),
      textResponse('ok'),
    ],
    { workspace: ws, approvalMode: 'default', hooks: hooksOn('Notification', [saveAndAnswer('n-$RANDOM.json')]) },
  );
  const seen: string[] = [];
  for (let i = 0; i < 2; i++) {
    const waiting = async () =>
      (await handle.query(statusQuery)).pendingApprovals.find((p) => !seen.includes(p.callId));
    const call = await eventually(waiting, 30_000, 'a call awaiting approval');
    const notified = () => fs.readdirSync(ws).filter((f) => f.startsWith('n-')).length > i || undefined;
    await eventually(notified, 30_000, 'the Notification hook');
    seen.push(call.callId);
    await handle.signal(toolConfirmationSignal, { callId: call.callId, outcome: 'proceed_once' });
  }
  expect((await h.finish(handle)).result?.response).toBe('ok');
  const notes = fs
    .readdirSync(ws)
    .filter((f) => f.startsWith('n-'))
    .map((f) => readJson(ws, f).details as Record<string, unknown>);
  const edit = notes.find((d) => d.type === 'edit')!;
  const exec = notes.find((d) => d.type === 'exec')!;
  expect(Object.keys(edit).sort()).toEqual(
    [
      ...['type', 'title', 'fileName', 'filePath', 'fileDiff', 'originalContent', 'newContent', 'isModifying'],
      ...['workflow_id', 'call_id', 'tool_name', 'tool_input'],
    ].sort(),
  );
  expect(edit).toMatchObject({
    title: 'Confirm Edit: a.txt',
    fileName: 'a.txt',
    filePath: path.join(ws, 'a.txt'),
    originalContent: 'one\n',
    newContent: 'two\n',
    isModifying: false,
    tool_name: 'replace',
  });
  expect(edit.fileDiff).toContain('-one\n+two');
  expect(Object.keys(exec).sort()).toEqual(
    ['type', 'title', 'command', 'rootCommand', 'workflow_id', 'call_id', 'tool_name', 'tool_input'].sort(),
  );
  expect(exec).toMatchObject({ title: 'Confirm Shell Command', command: 'echo hi && true', rootCommand: 'echo' });
});

test('PreCompress (auto) fires at every compression check of a non-empty conversation, as Gemini CLI fires it', async () => {
  const ws = h.workspace({ 'a.txt': 'A' });
  const read = functionCallResponse({ name: 'read_file', args: { file_path: 'a.txt' } });
  const run = await h.run([read, read, textResponse('done')], {
    workspace: ws,
    hooks: hooksOn('PreCompress', [`(cat; echo) >> "$GEMINI_PROJECT_DIR/pc.jsonl"`], { matcher: 'auto' }),
  });
  expect(run.result?.response).toBe('done');
  const lines = fs.readFileSync(path.join(ws, 'pc.jsonl'), 'utf8').trim().split('\n');
  // Three model requests, three checks: Gemini CLI's conversation starts with its environment message.
  expect(lines.map((l) => JSON.parse(l).trigger)).toEqual(['auto', 'auto', 'auto']);
  expect(run.events.filter((e) => e.type === 'chat_compressed')).toHaveLength(0);
  await maybeRecordHistory(h, run.workflowId, 'hooks-pre-compress-each-check');
});

test('a one-request prompt fires PreCompress (auto) once, as Gemini CLI fires it before its first request', async () => {
  // Gemini CLI's own hook test: `-p` with one scripted answer and a PreCompress `auto` hook.
  const ws = h.workspace();
  const run = await h.run([textResponse('Hello! I am ready now.')], {
    workspace: ws,
    hooks: hooksOn('PreCompress', [`(cat; echo) >> "$GEMINI_PROJECT_DIR/pc.jsonl"`], { matcher: 'auto' }),
  });
  expect(run.result?.response).toBe('Hello! I am ready now.');
  const lines = fs.readFileSync(path.join(ws, 'pc.jsonl'), 'utf8').trim().split('\n');
  expect(lines.map((l) => JSON.parse(l))).toEqual([expect.objectContaining({ trigger: 'auto' })]);
  expect(run.events.filter((e) => e.type === 'chat_compressed')).toHaveLength(0);
});

test("a session's SessionStart systemMessage shows in its first prompt's events", async () => {
  const ws = h.workspace();
  const hooks = hooksOn('SessionStart', [answer({ systemMessage: 'welcome back, ana' })]);
  h.fake.load([textResponse('First.'), textResponse('Second.')]);
  const id = `hooks-gemini-session-${Date.now()}`;
  const session = await h.env.client.workflow.start(agentSessionWorkflow, {
    taskQueue: h.taskQueue,
    workflowId: id,
    args: [{ defaults: { workspace: ws, model: 'gemini-test-model', approvalMode: 'yolo', maxTurns: 5, hooks } }],
  });
  const first = await session.executeUpdate(sendMessageUpdate, { args: [{ text: 'hi' }] });
  await promptResultOnceStarted(h.env.client, first);
  const second = await session.executeUpdate(sendMessageUpdate, { args: [{ text: 'again' }] });
  await promptResultOnceStarted(h.env.client, second);
  const hookEvents = async (pid: string) => (await h.events(pid)).filter((e) => e.type === 'hook');
  expect(await hookEvents(first)).toEqual([
    expect.objectContaining({ event: 'SessionStart', systemMessage: 'welcome back, ana' }),
  ]);
  expect(await hookEvents(second)).toEqual([]);
  await session.terminate();
});
