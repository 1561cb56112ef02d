import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PolicyRule } from '../../src/core/policy/types';
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { setApprovalModeSignal, statusQuery } from '../../src/workflows/api';
import { closeTestEnv } from '../helpers/temporal-env';
import { answerEvery } from '../helpers/approvals';
import { createHarness, maybeRecordHistory, type Harness } from '../helpers/agent-harness';

type Sent = {
  contents: { parts: { functionResponse?: { name: string; response: { output?: string; error?: string } } }[] }[];
  tools?: { functionDeclarations: { name: string }[] }[];
};

let h: Harness;
beforeAll(async () => {
  h = await createHarness('policy');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

const shell = (command: string) => ({ name: 'run_shell_command', args: { command } });
const write = (file_path: string, content = 'x') => ({ name: 'write_file', args: { file_path, content } });
/** Answers every call that comes up for approval; returns the ids of the calls asked about. */
const callIdsAnswered = async (...args: Parameters<typeof answerEvery>) =>
  (await answerEvery(...args)).map((c) => c.callId);
/** The function responses the model received in request `i`. */
const responsesIn = (i: number) =>
  ((h.fake.requests[i].body as Sent).contents.at(-1)!.parts ?? []).map((p) => p.functionResponse!.response);

const GIT_AND_RM: PolicyRule[] = [
  { toolName: 'run_shell_command', commandPrefix: 'echo safe', decision: 'allow', priority: 100, tier: 'workspace' },
  {
    toolName: 'run_shell_command',
    commandPrefix: 'rm',
    decision: 'deny',
    priority: 100,
    tier: 'user',
    denyMessage: 'No deleting.',
  },
];

test(
  'a denied command smuggled after an allowed prefix is refused without asking, whatever the ' + 'separator',
  async () => {
    const ws = h.workspace({ 'keep.txt': 'k' });
    const smuggled = [
      'echo safe; rm keep.txt',
      'echo safe && rm keep.txt',
      'echo safe | rm keep.txt',
      'echo safe\nrm keep.txt',
      'echo safe $(rm keep.txt)',
      'echo safe `rm keep.txt`',
      "bash -c 'rm keep.txt'",
    ];
    const handle = await h.start(
      [functionCallResponse([shell('echo safe'), ...smuggled.map(shell)]), textResponse('ok')],
      { workspace: ws, approvalMode: 'default', policyRules: GIT_AND_RM },
    );
    const asked = await callIdsAnswered(handle, () => ({ outcome: 'proceed_once' }));
    const run = await h.finish(handle);
    expect(asked).toEqual([]);
    const responses = responsesIn(1);
    expect(responses[0].output).toContain('safe');
    for (const r of responses.slice(1)) expect(r.error).toMatch(/No deleting/);
    expect(fs.existsSync(path.join(ws, 'keep.txt'))).toBe(true);
    await maybeRecordHistory(h, run.workflowId, 'policy-smuggling');
  },
);

test(
  'proceed_always allows that command with the same first argument for the rest of the prompt, and nothing ' + 'else',
  async () => {
    const ws = h.workspace();
    const commands = ['echo one', 'echo one more', 'echo two', 'pwd'];
    const script = [...commands.map((c) => functionCallResponse(shell(c))), textResponse('done')];
    const handle = await h.start(script, { workspace: ws, approvalMode: 'default' });
    const asked = await callIdsAnswered(handle, () => ({ outcome: 'proceed_always' }));
    const run = await h.finish(handle);
    // `echo one more` runs under the rule for `echo one`; `echo two` is another command and asks.
    expect(asked).toHaveLength(3);
    expect(run.status.pendingApprovals).toEqual([]);
    expect(responsesIn(2)[0].output).toContain('one more');
    expect(responsesIn(3)[0].output).toContain('two');
    await maybeRecordHistory(h, run.workflowId, 'proceed-always-subcommand');
  },
);

test('a deny cannot be overridden by an approval, not even by modifying the arguments into it', async () => {
  const ws = h.workspace();
  const rules: PolicyRule[] = [
    {
      toolName: 'write_file',
      argsPattern: '"file_path":"secret',
      decision: 'deny',
      priority: 500,
      tier: 'admin',
      denyMessage: 'Secrets stay put.',
    },
  ];
  const handle = await h.start([functionCallResponse([write('secret.txt'), write('a.txt')]), textResponse('ok')], {
    workspace: ws,
    approvalMode: 'default',
    policyRules: rules,
  });
  const asked = await callIdsAnswered(handle, () => ({
    outcome: 'modify',
    args: { file_path: 'secret2.txt', content: 'y' },
  }));
  await h.finish(handle);
  expect(asked).toHaveLength(1);
  const [first, second] = responsesIn(1);
  // Gemini CLI's exact text, then the rule's denyMessage.
  expect(first.error).toBe('Tool execution denied by policy. Secrets stay put.');
  expect(second.error).toMatch(/cannot override a policy deny/);
  expect(fs.readdirSync(ws)).toEqual([]);
});

test('plan mode writes plan files only, even when a write is approved after a switch into plan mode', async () => {
  const ws = h.workspace();
  const calls = [
    write('.durable-agent/plans/plan.md', '# plan'),
    write('src/a.md'),
    write('.durable-agent/plans/../../evil.md'),
    shell('echo hi'),
  ];
  const run = await h.run([functionCallResponse(calls), textResponse('planned')], {
    workspace: ws,
    approvalMode: 'plan',
  });
  const responses = responsesIn(1);
  expect(responses[0].output).toBeDefined();
  for (const r of responses.slice(1)) expect(r.error).toMatch(/denied|plan mode/i);
  expect(fs.readFileSync(path.join(ws, '.durable-agent/plans/plan.md'), 'utf8')).toBe('# plan');
  expect(fs.existsSync(path.join(ws, 'src'))).toBe(false);
  expect(run.result?.response).toBe('planned');

  const handle = await h.start([functionCallResponse(write('late.txt')), textResponse('ok')], {
    workspace: ws,
    approvalMode: 'default',
  });
  for (let i = 0; i < 100 && !(await handle.query(statusQuery)).pendingApprovals.length; i++)
    await new Promise((r) => setTimeout(r, 50));
  await handle.signal(setApprovalModeSignal, 'plan');
  await callIdsAnswered(handle, () => ({ outcome: 'proceed_once' }));
  await h.finish(handle);
  expect(responsesIn(1)[0].error).toMatch(/cannot override a policy deny/);
  expect(fs.existsSync(path.join(ws, 'late.txt'))).toBe(false);
});

test(
  'enter_plan_mode and exit_plan_mode switch modes with approval; the approver picks the mode to continue ' + 'in',
  async () => {
    const ws = h.workspace();
    const script = [
      functionCallResponse({ name: 'enter_plan_mode', args: { reason: 'big change' } }),
      functionCallResponse([write('.durable-agent/plans/p.md', '# steps'), write('code.ts')]),
      functionCallResponse({ name: 'exit_plan_mode', args: { plan_filename: 'p.md' } }),
      functionCallResponse(write('code.ts', 'done')),
      textResponse('implemented'),
    ];
    const handle = await h.start(script, { workspace: ws, approvalMode: 'default' });
    const asked = await callIdsAnswered(handle, (call) =>
      call.name === 'exit_plan_mode' ? { outcome: 'proceed_once', mode: 'auto_edit' } : { outcome: 'proceed_once' },
    );
    const run = await h.finish(handle);
    expect(asked).toHaveLength(2);
    const declared = (i: number) => (h.fake.requests[i].body as Sent).tools![0].functionDeclarations.map((d) => d.name);
    expect(declared(0)).toContain('enter_plan_mode');
    expect(declared(1)).toContain('exit_plan_mode');
    expect(declared(1)).not.toContain('enter_plan_mode');
    expect(responsesIn(2)[1].error).toMatch(/plan/i);
    expect(fs.readFileSync(path.join(ws, 'code.ts'), 'utf8')).toBe('done');
    expect(run.events.filter((e) => e.type === 'approval_mode').map((e) => (e as { mode: string }).mode)).toEqual([
      'plan',
      'auto_edit',
    ]);
    expect(run.result?.response).toBe('implemented');
    await maybeRecordHistory(h, run.workflowId, 'plan-mode');
  },
);
