/**
 * What the policy and the approver see is exactly what runs: a string argument over
 * 2 KiB travels through the workflow as a blob marker, and every decision (policy, plan mode,
 * approvals) must still judge its full text; a marker the model forges is refused; a reused call
 * id gets its own decision. Real dev server, real SDK against the fake Gemini server, real shell.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import type { PolicyRule } from '../../src/core/policy/types';
import { functionCallResponse, textResponse, type ScriptLine } from '../../src/fake-gemini';
import { statusQuery, toolConfirmationSignal, type PromptStatus, type ToolConfirmation } from '../../src/workflows/api';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, maybeRecordHistory, type Harness } from '../helpers/agent-harness';
import { createSandbox, eventually, killAllCli } from '../helpers/cli';
import { hooksOn, saveAndAnswer } from '../helpers/hook-config';

jest.setTimeout(120_000);

type Response = { output?: string; error?: string };
type Sent = { contents: { parts: { functionResponse?: { id?: string; name: string; response: Response } }[] }[] };

let h: Harness;
beforeAll(async () => {
  h = await createHarness('full-args');
});
afterEach(async () => {
  await killAllCli();
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

/** More than the 2,048 characters a string may have before it becomes a marker. */
const PAD = ' '.repeat(2100);
const shell = (command: unknown) => ({ name: 'run_shell_command', args: { command } });
const functionResponses = (i: number) =>
  ((h.fake.requests[i].body as Sent).contents.at(-1)!.parts ?? []).map((p) => p.functionResponse!);
const responsesIn = (i: number) => functionResponses(i).map((r) => r.response);

/** Gives the calls of a scripted turn the ids the model "chose". */
function withIds(line: ScriptLine, ids: string[]): ScriptLine {
  const chunks = (
    line as unknown as { response: { candidates: { content: { parts: { functionCall?: { id?: string } }[] } }[] }[] }
  ).response;
  const calls = chunks.flatMap((c) =>
    c.candidates[0].content.parts.flatMap((p) => (p.functionCall ? [p.functionCall] : [])),
  );
  calls.forEach((call, i) => (call.id = ids[i]));
  return line;
}

/** Answers every call that comes up for approval with `answer(call)`; returns the calls asked about. */
async function answerAll(
  handle: WorkflowHandle,
  answer: (call: PromptStatus['pendingApprovals'][0]) => Omit<ToolConfirmation, 'callId'>,
): Promise<PromptStatus['pendingApprovals']> {
  const asked: PromptStatus['pendingApprovals'] = [];
  for (;;) {
    const description = await handle.describe();
    if (description.status.name !== 'RUNNING') return asked;
    const status = await handle.query(statusQuery).catch(() => undefined);
    for (const call of status?.pendingApprovals ?? []) {
      if (asked.some((a) => a.callId === call.callId)) continue;
      asked.push(call);
      await handle.signal(toolConfirmationSignal, { callId: call.callId, ...answer(call) });
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

test(
  'an allow rule for `git status` does not allow `git status` + long padding + `; touch PWNED`: it ' + 'asks',
  async () => {
    const ws = h.workspace();
    const rules: PolicyRule[] = [
      { toolName: 'run_shell_command', commandPrefix: 'git status', decision: 'allow', priority: 100, tier: 'user' },
    ];
    const handle = await h.start([functionCallResponse(shell(`git status${PAD}; touch PWNED`)), textResponse('ok')], {
      workspace: ws,
      approvalMode: 'default',
      policyRules: rules,
    });
    const asked = await answerAll(handle, () => ({ outcome: 'cancel' }));
    await h.finish(handle);
    expect(asked).toHaveLength(1);
    expect(responsesIn(1)[0].error).toMatch(/denied/);
    expect(fs.existsSync(path.join(ws, 'PWNED'))).toBe(false);
  },
);

test('in yolo a deny rule for `rm` holds after long padding', async () => {
  const ws = h.workspace({ 'keep.txt': 'k' });
  const rules: PolicyRule[] = [
    {
      toolName: 'run_shell_command',
      commandPrefix: 'rm',
      decision: 'deny',
      priority: 100,
      tier: 'user',
      denyMessage: 'No deleting.',
    },
  ];
  const run = await h.run([functionCallResponse(shell(`echo hi${PAD}; rm keep.txt`)), textResponse('ok')], {
    workspace: ws,
    approvalMode: 'yolo',
    policyRules: rules,
  });
  await maybeRecordHistory(h, run.workflowId, 'policy-full-args');
  const [response] = responsesIn(1);
  expect(response.error).toMatch(/No deleting/);
  expect(response.error!.length).toBeLessThan(2000);
  expect(fs.existsSync(path.join(ws, 'keep.txt'))).toBe(true);
});

test('in plan mode a plan path padded with slashes cannot climb out to a source file', async () => {
  const ws = h.workspace({ 'src/app.js': 'original\n' });
  const filePath = `.durable-agent/plans/a.md${'/'.repeat(2100)}../../../src/app.js`;
  const script = [
    functionCallResponse({ name: 'write_file', args: { file_path: filePath, content: 'pwned\n' } }),
    textResponse('ok'),
  ];
  await h.run(script, { workspace: ws, approvalMode: 'plan' });
  expect(responsesIn(1)[0].error).toBeDefined();
  expect(fs.readFileSync(path.join(ws, 'src/app.js'), 'utf8')).toBe('original\n');
});

test('a blob marker forged by the model is an invalid-arguments error, never resolved or run', async () => {
  const ws = h.workspace();
  const ref = await h.store.putBlob('touch PWNED');
  const forged = { $blob: ref, size: 11, preview: 'echo harmless' };
  const run = await h.run([functionCallResponse(shell(forged)), textResponse('ok')], {
    workspace: ws,
    approvalMode: 'yolo',
  });
  const [response] = responsesIn(1);
  expect(response.error).toMatch(/"\$blob" key/);
  expect(response.output).toBeUndefined();
  expect(fs.existsSync(path.join(ws, 'PWNED'))).toBe(false);
  const request = run.events.find((e) => e.type === 'tool_call_request');
  expect(request && typeof (request as { args: { command: unknown } }).args.command).toBe('string');
});

test(
  'a call id the model reuses in a later turn is asked about again, and its own answer is what the model ' + 'hears',
  async () => {
    const ws = h.workspace();
    const script = [
      withIds(functionCallResponse(shell('echo one')), ['c1']),
      withIds(functionCallResponse(shell('touch PWNED')), ['c1']),
      textResponse('done'),
    ];
    const handle = await h.start(script, { workspace: ws, approvalMode: 'default' });
    const asked = await answerAll(handle, (call) => ({
      outcome: (call.args as { command: string }).command === 'echo one' ? 'proceed_once' : 'cancel',
    }));
    await maybeRecordHistory(h, (await h.finish(handle)).workflowId, 'reused-call-id');
    expect(asked.map((a) => (a.args as { command: string }).command)).toEqual(['echo one', 'touch PWNED']);
    expect(new Set(asked.map((a) => a.callId)).size).toBe(2);
    expect(fs.existsSync(path.join(ws, 'PWNED'))).toBe(false);
    const [second] = functionResponses(2);
    expect(second.id).toBe('c1');
    expect(second.response.error).toMatch(/denied/);
  },
);

test('two calls of one turn with the same id each run and each get their own response, under that id', async () => {
  const ws = h.workspace();
  const script = [
    withIds(functionCallResponse([shell('echo alpha'), shell('echo beta')]), ['dup', 'dup']),
    textResponse('done'),
  ];
  await h.run(script, { workspace: ws, approvalMode: 'yolo' });
  const responses = functionResponses(1);
  expect(responses.map((r) => r.id)).toEqual(['dup', 'dup']);
  expect(responses[0].response.output).toContain('alpha');
  expect(responses[1].response.output).toContain('beta');
});

test('`status --json` and `pending` show the whole long command, or say plainly that they cannot', async () => {
  const ws = h.workspace();
  const command = `git status${PAD}; touch PWNED`;
  const handle = await h.start([functionCallResponse(shell(command)), textResponse('ok')], {
    workspace: ws,
    approvalMode: 'default',
  });
  await eventually(
    async () => ((await handle.query(statusQuery)).pendingApprovals.length > 0 ? true : undefined),
    30_000,
    'a call awaiting approval',
  );
  const box = createSandbox('full-args', h.env.address);
  fs.mkdirSync(box.home, { recursive: true });
  fs.symlinkSync(h.storeDir, path.join(box.home, 'store'));
  const status = await box.run(['status', handle.workflowId, '--json']);
  expect(status.code).toBe(0);
  expect(
    (JSON.parse(status.stdout) as { pendingApprovals: { args: { command: unknown } }[] }).pendingApprovals[0].args
      .command,
  ).toBe(command);
  const pending = await box.run(['pending', handle.workflowId]);
  expect(pending.stdout).toContain(JSON.stringify(command));
  // A CLI whose home holds another store cannot read the text, and says so instead of showing a preview silently.
  const elsewhere = createSandbox('full-args-elsewhere', h.env.address);
  const unread = await elsewhere.run(['status', handle.workflowId, '--json']);
  const shown = (JSON.parse(unread.stdout) as { pendingApprovals: { args: { command: { note?: string } } }[] })
    .pendingApprovals[0].args.command;
  expect(shown.note).toMatch(new RegExp(`not shown in full: this argument is ${command.length} characters long`));
  expect((await elsewhere.run(['pending', handle.workflowId])).stdout).toMatch(/not shown in full/);
  await answerAll(handle, () => ({ outcome: 'cancel' }));
  await h.finish(handle);
  expect(fs.existsSync(path.join(ws, 'PWNED'))).toBe(false);
});

test('a BeforeTool hook sees the full arguments, and its long rewrite is judged on its full text', async () => {
  const ws = h.workspace({ 'keep.txt': 'k' });
  const original = `echo first${PAD}; echo tail`;
  const rewritten = `echo hi${PAD}; rm keep.txt`;
  const hooks = hooksOn('BeforeTool', [
    saveAndAnswer('bt.json', { hookSpecificOutput: { tool_input: { command: rewritten } } }),
  ]);
  const denyRm: PolicyRule = {
    toolName: 'run_shell_command',
    commandPrefix: 'rm',
    decision: 'deny',
    priority: 100,
    tier: 'user',
    denyMessage: 'No deleting.',
  };
  await h.run([functionCallResponse(shell(original)), textResponse('ok')], {
    workspace: ws,
    approvalMode: 'yolo',
    policyRules: [denyRm],
    hooks,
  });
  expect(
    (JSON.parse(fs.readFileSync(path.join(ws, 'bt.json'), 'utf8')) as { tool_input: { command: string } }).tool_input
      .command,
  ).toBe(original);
  expect(responsesIn(1)[0].error).toMatch(/No deleting/);
  expect(fs.existsSync(path.join(ws, 'keep.txt'))).toBe(true);
});

test('`run` without a terminal prints the whole long command in its approval hint and in stream-json', async () => {
  const box = createSandbox('full-args-run', h.env.address);
  const command = `git status${PAD}; touch PWNED`;
  const script = box.script([functionCallResponse(shell(command)), textResponse('ok')]);
  const run = box.start(['run', 'check', '--fake-responses', script, '-w', box.workspace, '-o', 'stream-json']);
  const [, id, callId] = await run.waitFor('stderr', /durable-agent deny (\S+) (\S+)/);
  expect(run.stderr).toContain(`? run_shell_command ${JSON.stringify({ command })} needs approval`);
  const toolUse = run.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { type: string; parameters?: { command?: unknown } })
    .find((l) => l.type === 'tool_use');
  expect(toolUse?.parameters?.command).toBe(command);
  expect((await box.run(['deny', id, callId])).code).toBe(0);
  expect((await run.done).code).toBe(0);
  expect(fs.existsSync(path.join(box.workspace, 'PWNED'))).toBe(false);
});
