import * as fs from 'node:fs';
import * as path from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import type { AgentDefinition } from '../../src/core/agents/definition';
import { generalistAgent } from '../../src/core/agents/builtins';
import { functionCallResponse, streamLine, textResponse, type ScriptLine } from '../../src/fake-gemini';
import { confirmToolCallUpdate, eventsQuery, statusQuery, type PromptStatus } from '../../src/workflows/api';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, maybeRecordHistory, type Harness } from '../helpers/agent-harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness('agents');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

const invoke = (agent_name: string, prompt = 'look around') =>
  functionCallResponse({ name: 'invoke_agent', args: { agent_name, prompt } });
const complete = (args: Record<string, unknown>) => functionCallResponse({ name: 'complete_task', args });
const read = (file_path = 'a.txt') => functionCallResponse({ name: 'read_file', args: { file_path } });
const agent = (over: Partial<AgentDefinition>): AgentDefinition => ({
  ...generalistAgent,
  name: 'helper',
  description: 'A test helper agent.',
  tools: ['read_file', 'list_directory', 'write_file', 'run_shell_command'],
  ...over,
});
/** What the parent model received as the invoke_agent result, in its request `i`. */
const agentResult = (i: number) => {
  const body = h.fake.requests[i].body as {
    contents: { parts: { functionResponse?: { response: { output?: string; error?: string } } }[] }[];
  };
  const response = body.contents.at(-1)!.parts[0].functionResponse!.response;
  return response.output ?? response.error ?? '';
};
const childOf = async (parentId: string) => {
  for await (const wf of h.env.client.workflow.list({ query: `WorkflowType = 'subagentWorkflow'` }))
    if (wf.workflowId.startsWith(`${parentId}--`)) return wf;
  return undefined;
};

async function run(script: ScriptLine[], agents?: AgentDefinition[], extra = {}) {
  return h.run(script, { workspace: h.workspace({ 'a.txt': 'A' }), agents, ...extra });
}

test(
  'invoke_agent runs the agent as a child workflow and answers with its complete_task output; usage rolls ' + 'up',
  async () => {
    const r = await run([
      invoke('generalist'),
      read(),
      complete({ result: 'a.txt says A' }),
      textResponse('The agent found it.'),
    ]);
    expect(r.result?.response).toBe('The agent found it.');
    expect(agentResult(3)).toMatch(/Termination reason: goal[\s\S]*a\.txt says A/);
    const child = await childOf(r.workflowId);
    expect(child?.status.name).toBe('COMPLETED');
    // Four model calls of 15 tokens each, two of them the child's: the parent's totals include them.
    expect(h.fake.requests).toHaveLength(4);
    expect(r.status.stats?.usage.total).toBe(60);
    await maybeRecordHistory(h, r.workflowId, 'subagent-goal');
  },
);

test(
  'a sub-agent reports its turns as the prompt does (one turn engine): thoughts, calls, then the finished ' + 'turn',
  async () => {
    const thinking = streamLine([
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                { text: '**Checking** the file first', thought: true },
                { functionCall: { name: 'complete_task', args: { result: 'A' } } },
              ],
            },
            finishReason: 'STOP',
          },
        ],
        usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 2, thoughtsTokenCount: 3, totalTokenCount: 10 },
      },
    ]);
    const r = await run([invoke('generalist'), thinking, textResponse('ok')]);
    const child = await childOf(r.workflowId);
    const page = await h.env.client.workflow.getHandle(child!.workflowId).query(eventsQuery, 0);
    const turnOne = page.events.filter((e) => 'turn' in e && e.turn === 1).map((e) => e.type);
    expect(turnOne.slice(0, 3)).toEqual(['thought', 'tool_call_request', 'finished']);
    expect(page.events.find((e) => e.type === 'thought')).toMatchObject({ subject: 'Checking' });
  },
);

test('a sub-agent that inherits every tool is offered no plan-mode tool: plan mode belongs to the prompt', async () => {
  await run([invoke('generalist'), complete({ result: 'done' }), textResponse('ok')]);
  const declared = (i: number) =>
    ((h.fake.requests[i].body as { tools?: { functionDeclarations?: { name: string }[] }[] }).tools ?? [])
      .flatMap((tool) => tool.functionDeclarations ?? [])
      .map((declaration) => declaration.name);
  expect(declared(0)).toContain('enter_plan_mode');
  expect(declared(1)).toEqual(expect.arrayContaining(['read_file', 'write_file', 'complete_task']));
  expect(declared(1).filter((name) => name.endsWith('_plan_mode'))).toEqual([]);
});

test('an invalid complete_task is answered with what to fix, and a valid one then succeeds', async () => {
  const r = await run([invoke('generalist'), complete({}), complete({ result: 'fixed' }), textResponse('ok')]);
  expect(JSON.stringify(h.fake.requests[2].body)).toContain('not accepted');
  expect(agentResult(3)).toContain('fixed');
  expect(r.result?.response).toBe('ok');
});

test('a tool outside the agent’s list is answered "unauthorized" and not run', async () => {
  const ws = h.workspace();
  const r = await h.run(
    [
      invoke('reader'),
      functionCallResponse({ name: 'write_file', args: { file_path: 'x.txt', content: 'no' } }),
      complete({ result: 'done' }),
      textResponse('ok'),
    ],
    {
      workspace: ws,
      agents: [agent({ name: 'reader', tools: ['read_file'] })],
    },
  );
  expect(JSON.stringify(h.fake.requests[2].body)).toContain('is not available to the reader agent');
  expect(fs.existsSync(path.join(ws, 'x.txt'))).toBe(false);
  expect(r.result?.response).toBe('ok');
});

describe('terminations and the recovery turn', () => {
  const cases: [string, Partial<AgentDefinition>, ScriptLine[]][] = [
    ['max_turns', { maxTurns: 2 }, [read(), read()]],
    ['no_complete_task', {}, [textResponse('I am done, I think.')]],
    [
      'timeout',
      { maxMinutes: 0.02 },
      [functionCallResponse({ name: 'run_shell_command', args: { command: 'sleep 2' } })],
    ],
  ];
  test.each(cases)('%s, then complete_task in the recovery turn: goal', async (reason, over, childTurns) => {
    const r = await run(
      [invoke('helper'), ...childTurns, complete({ result: 'partial findings' }), textResponse('ok')],
      [agent(over)],
    );
    const last = h.fake.requests.length - 1;
    expect(JSON.stringify(h.fake.requests[last - 1].body)).toContain('STOP.');
    expect(agentResult(last)).toMatch(/Termination reason: goal[\s\S]*partial findings/);
    expect(r.result?.response).toBe('ok');
    expect(reason).toBeTruthy();
  });
  test.each(cases)(
    '%s, and no complete_task in the recovery turn either: that reason',
    async (reason, over, childTurns) => {
      const r = await run(
        [invoke('helper'), ...childTurns, textResponse('still nothing'), textResponse('ok')],
        [agent(over)],
      );
      expect(agentResult(h.fake.requests.length - 1)).toContain(`Termination reason: ${reason}`);
      expect(r.result?.response).toBe('ok');
    },
  );
  test('a recovery turn slower than its grace period ends the run', async () => {
    const slow: ScriptLine = { ...complete({ result: 'late' }), delayMs: 3000 };
    await run([invoke('helper'), textResponse('hmm'), slow, textResponse('ok')], [agent({ recoveryGraceSeconds: 1 })]);
    expect(agentResult(h.fake.requests.length - 1)).toContain('Termination reason: no_complete_task');
  });
});

async function waitForChildApproval(handle: WorkflowHandle): Promise<PromptStatus['pendingApprovals'][0]> {
  for (let i = 0; i < 200; i++) {
    const pending = (await handle.query(statusQuery)).pendingApprovals;
    if (pending.length) return pending[0];
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('no approval reached the parent');
}

test('an approval inside the child shows on the parent and is answered with the parent’s id', async () => {
  const ws = h.workspace();
  const handle = await h.start(
    [
      invoke('helper'),
      functionCallResponse({ name: 'write_file', args: { file_path: 'w.txt', content: 'by child' } }),
      complete({ result: 'written' }),
      textResponse('ok'),
    ],
    {
      workspace: ws,
      approvalMode: 'default',
      agents: [agent({})],
    },
  );
  const pending = await waitForChildApproval(handle);
  expect(pending).toMatchObject({
    name: 'write_file',
    childWorkflowId: expect.stringContaining(`${handle.workflowId}--`),
  });
  await handle.executeUpdate(confirmToolCallUpdate, { args: [{ callId: pending.callId, outcome: 'proceed_once' }] });
  const r = await h.finish(handle);
  expect(fs.readFileSync(path.join(ws, 'w.txt'), 'utf8')).toBe('by child');
  expect(r.result?.response).toBe('ok');
  await maybeRecordHistory(h, r.workflowId, 'subagent-approval');
});

test('cancelling the parent cancels the child', async () => {
  const handle = await h.start(
    [invoke('helper'), functionCallResponse({ name: 'write_file', args: { file_path: 'never.txt', content: 'x' } })],
    {
      approvalMode: 'default',
      agents: [agent({})],
    },
  );
  await waitForChildApproval(handle);
  await handle.cancel();
  const r = await h.finish(handle);
  expect(r.status.status).toBe('cancelled');
  const child = await childOf(handle.workflowId);
  const described = await h.env.client.workflow.getHandle(child!.workflowId).describe();
  expect(described.status.name).toBe('CANCELLED');
});

test('proceed_always rules flow from the parent into the child', async () => {
  const handle = await h.start(
    // `always` on `echo from parent` allows `echo from ...` (the command and its first argument).
    [
      functionCallResponse({ name: 'run_shell_command', args: { command: 'echo from parent' } }),
      invoke('helper'),
      functionCallResponse({ name: 'run_shell_command', args: { command: 'echo from child' } }),
      complete({ result: 'ran' }),
      textResponse('ok'),
    ],
    { approvalMode: 'default', agents: [agent({})] },
  );
  const first = await waitForChildApproval(handle);
  await handle.executeUpdate(confirmToolCallUpdate, { args: [{ callId: first.callId, outcome: 'proceed_always' }] });
  const r = await h.finish(handle);
  expect(r.result?.response).toBe('ok');
  expect(agentResult(4)).toContain('ran');
});
