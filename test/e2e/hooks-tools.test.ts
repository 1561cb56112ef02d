import * as fs from 'node:fs';
import * as path from 'node:path';
import { functionCallResponse, streamLine, textResponse } from '../../src/fake-gemini';
import { statusQuery, toolConfirmationSignal } from '../../src/workflows/api';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, type Harness, type PromptRun } from '../helpers/agent-harness';
import { answer, hooksOn, saveAndAnswer, type SentRequest } from '../helpers/hook-config';
import { fenceUntrusted } from '../../src/core/untrusted';
import { withoutSessionContext } from '../helpers/sent-parts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness('hooks-tools');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

const sent = (i: number) => h.fake.requests[i].body as SentRequest;
const responseIn = (i: number) =>
  sent(i).contents.at(-1)!.parts[0].functionResponse!.response as { output?: string; error?: string };
const ofType = (run: PromptRun, type: string) =>
  run.events.filter((e) => e.type === type) as unknown as Record<string, unknown>[];
const write = (content: string) =>
  functionCallResponse({ name: 'write_file', args: { file_path: 'out.txt', content } });

describe('BeforeTool', () => {
  test('deny answers the call with the reason and the tool does not run', async () => {
    const ws = h.workspace();
    await h.run([write('x'), textResponse('ok')], {
      workspace: ws,
      hooks: hooksOn('BeforeTool', ['echo "no writes today" >&2; exit 2'], { matcher: 'write_.*' }),
    });
    expect(responseIn(1).error).toBe('Tool execution blocked by hook: no writes today');
    expect(fs.existsSync(path.join(ws, 'out.txt'))).toBe(false);
  });

  test('a rewrite replaces the arguments; the hook saw the original ones', async () => {
    const ws = h.workspace();
    await h.run([write('original'), textResponse('ok')], {
      workspace: ws,
      hooks: hooksOn('BeforeTool', [
        saveAndAnswer('bt.json', { hookSpecificOutput: { tool_input: { content: 'rewritten' } } }),
      ]),
    });
    expect(fs.readFileSync(path.join(ws, 'out.txt'), 'utf8')).toBe('rewritten');
    expect(JSON.parse(fs.readFileSync(path.join(ws, 'bt.json'), 'utf8'))).toMatchObject({
      tool_name: 'write_file',
      tool_input: { file_path: 'out.txt', content: 'original' },
    });
  });

  test('a rewrite into arguments the policy denies is refused', async () => {
    const ws = h.workspace();
    const policyRules = [
      {
        toolName: 'write_file',
        argsPattern: 'secret',
        decision: 'deny' as const,
        priority: 500,
        tier: 'admin' as const,
      },
    ];
    await h.run([write('x'), textResponse('ok')], {
      workspace: ws,
      policyRules,
      hooks: hooksOn('BeforeTool', [answer({ hookSpecificOutput: { tool_input: { file_path: 'secret.txt' } } })]),
    });
    expect(responseIn(1).error).toMatch(/denied by policy/);
    expect(fs.existsSync(path.join(ws, 'secret.txt'))).toBe(false);
  });

  test('stop answers the call and ends the prompt without another model request', async () => {
    const ws = h.workspace();
    const run = await h.run([write('x')], {
      workspace: ws,
      hooks: hooksOn('BeforeTool', [answer({ continue: false, stopReason: 'halt' })]),
    });
    expect(run.result?.terminateReason).toBe('stopped');
    expect(h.fake.requests).toHaveLength(1);
    expect(ofType(run, 'agent_execution_stopped')[0]).toMatchObject({ reason: 'halt' });
    const messages = await h.store.readMessages(run.result!.transcript!.id, run.result!.transcript!.length);
    expect(JSON.stringify(messages.at(-1))).toContain('Agent execution stopped by hook: halt');
  });
});

describe('AfterTool', () => {
  test('additional context is added to the function response; the hook saw the result', async () => {
    const ws = h.workspace({ 'a.txt': 'alpha' });
    await h.run([functionCallResponse({ name: 'read_file', args: { file_path: 'a.txt' } }), textResponse('ok')], {
      workspace: ws,
      hooks: hooksOn('AfterTool', [
        saveAndAnswer('at.json', { hookSpecificOutput: { additionalContext: 'file is tracked' } }),
      ]),
    });
    expect(responseIn(1).output).toBe(
      `alpha\n\n${fenceUntrusted('hook', '<hook_context>file is tracked</hook_context>')}`,
    );
    expect(JSON.parse(fs.readFileSync(path.join(ws, 'at.json'), 'utf8')).tool_response).toMatchObject({
      llmContent: 'alpha',
      error: null,
    });
  });

  test('a tail call runs and its result answers the original call', async () => {
    const ws = h.workspace({ 'b.txt': 'bravo' });
    const tail = { hookSpecificOutput: { tailToolCallRequest: { name: 'read_file', args: { file_path: 'b.txt' } } } };
    const run = await h.run([write('x'), textResponse('ok')], {
      workspace: ws,
      hooks: hooksOn('AfterTool', [answer(tail)], { matcher: 'write_file' }),
    });
    const part = sent(1).contents.at(-1)!.parts[0].functionResponse!;
    expect(part.name).toBe('write_file');
    expect(part.response).toEqual({ output: 'bravo' });
    expect(ofType(run, 'tool_call_response').map((e) => e.name)).toEqual(['read_file', 'write_file']);
  });

  test('block replaces the result with the reason', async () => {
    await h.run([functionCallResponse({ name: 'list_directory', args: { dir_path: '.' } }), textResponse('ok')], {
      hooks: hooksOn('AfterTool', [answer({ decision: 'block', reason: 'listing hidden' })]),
    });
    expect(responseIn(1)).toEqual({ error: 'Tool result blocked by hook: listing hidden' });
  });
});

describe('advisory and lifecycle events', () => {
  test('Notification tells a hook that a call awaits approval', async () => {
    const ws = h.workspace();
    const handle = await h.start([write('x'), textResponse('ok')], {
      workspace: ws,
      approvalMode: 'default',
      hooks: hooksOn('Notification', [saveAndAnswer('notified.json')]),
    });
    const file = path.join(ws, 'notified.json');
    for (let i = 0; i < 300 && !fs.existsSync(file); i++) await new Promise((r) => setTimeout(r, 100));
    const status = await handle.query(statusQuery);
    await handle.signal(toolConfirmationSignal, { callId: status.pendingApprovals[0].callId, outcome: 'proceed_once' });
    expect((await h.finish(handle)).result?.response).toBe('ok');
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({
      hook_event_name: 'Notification',
      notification_type: 'ToolPermission',
      details: { tool_name: 'write_file', tool_input: { content: 'x' } },
    });
  });

  test('PreCompress fires (trigger auto) before an automatic compression', async () => {
    const ws = h.workspace({ 'a.txt': 'A' });
    const big = streamLine([
      {
        candidates: [
          {
            content: { role: 'model', parts: [{ functionCall: { name: 'read_file', args: { file_path: 'a.txt' } } }] },
            finishReason: 'STOP',
          },
        ],
        usageMetadata: { promptTokenCount: 600_000, candidatesTokenCount: 5, totalTokenCount: 600_005 },
      },
    ]);
    const run = await h.run([big, textResponse('fine')], {
      workspace: ws,
      hooks: hooksOn('PreCompress', [saveAndAnswer('pc.json')], { matcher: 'auto' }),
    });
    expect(run.result?.response).toBe('fine');
    expect(JSON.parse(fs.readFileSync(path.join(ws, 'pc.json'), 'utf8'))).toMatchObject({ trigger: 'auto' });
  });

  test('SessionStart and SessionEnd of a run outside a session; SessionStart context reaches the model', async () => {
    const ws = h.workspace();
    const hooks = {
      ...hooksOn('SessionStart', [
        `(cat; echo) >> "$GEMINI_PROJECT_DIR/session.jsonl"; ` +
          `${answer({ hookSpecificOutput: { additionalContext: 'on call: ana' } })}`,
      ]),
      ...hooksOn('SessionEnd', ['(cat; echo) >> "$GEMINI_PROJECT_DIR/session.jsonl"']),
    };
    await h.run([textResponse('ok')], { workspace: ws, hooks });
    expect(withoutSessionContext(sent(0).contents.at(-1)!.parts).map((p) => p.text)).toEqual([
      fenceUntrusted('hook', '<hook_context>on call: ana</hook_context>'),
      'do the task',
    ]);
    const lines = fs
      .readFileSync(path.join(ws, 'session.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.hook_event_name, l.source ?? l.reason])).toEqual([
      ['SessionStart', 'startup'],
      ['SessionEnd', 'exit'],
    ]);
  });
});

describe('failing hooks are ignored with a warning', () => {
  test('a crashing hook and a timed-out hook do not stop the agent; a working one still counts', async () => {
    const hooks = hooksOn('BeforeAgent', [
      'echo broken >&2; exit 1',
      { command: 'sleep 30', timeout: 300, name: 'slow' },
      answer({ hookSpecificOutput: { additionalContext: 'still here' } }),
    ]);
    const run = await h.run([textResponse('ok')], { hooks });
    expect(run.result?.response).toBe('ok');
    const warnings = ofType(run, 'warning').map((w) => w.message);
    expect(warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/exited with code 1: broken/),
        'hook slow timed out after 300 ms and was stopped',
      ]),
    );
    expect(JSON.stringify(sent(0))).toContain('still here');
  });

  test('a hook printing JSON of the wrong shape is a warning', async () => {
    const run = await h.run([textResponse('ok')], { hooks: hooksOn('BeforeAgent', [answer({ decision: 'perhaps' })]) });
    expect(run.result?.terminateReason).toBe('completed');
    expect(
      ofType(run, 'warning')
        .map((w) => w.message)
        .join('\n'),
    ).toMatch(/not a hook output.*decision/);
  });
});
