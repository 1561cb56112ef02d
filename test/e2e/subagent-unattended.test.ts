import * as fs from 'node:fs';
import * as path from 'node:path';
import { temporal } from '@temporalio/proto';
import type { AgentDefinition } from '../../src/core/agents/definition';
import { generalistAgent } from '../../src/core/agents/builtins';
import { errorLine, functionCallResponse, streamLine, textResponse } from '../../src/fake-gemini';
import { eventsQuery } from '../../src/workflows/api';
import type { ApprovalMode } from '../../src/core/types';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, maybeRecordHistory, type Harness } from '../helpers/agent-harness';
import { hooksOn, saveAndAnswer } from '../helpers/hook-config';

/** Issue 14: sub-agents and read-backs that run to the end with nobody watching. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness('unattended-agents');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

type Body = {
  contents: { parts: { functionResponse?: { response: { output?: string; error?: string } } }[] }[];
  generationConfig?: { temperature?: number; topP?: number };
};
const body = (i: number) => h.fake.requests[i].body as Body;
/** The function response the model received in request `i`. */
const lastResponse = (i: number) => {
  const response = body(i).contents.at(-1)!.parts[0].functionResponse!.response;
  return response.output ?? response.error ?? '';
};
const models = () => h.fake.requests.map((r) => `${r.method}:${r.model}`);
const invoke = (agent_name: string, prompt = 'look around') =>
  functionCallResponse({ name: 'invoke_agent', args: { agent_name, prompt } });
const complete = (args: Record<string, unknown>) => functionCallResponse({ name: 'complete_task', args });
const read = (file_path = 'a.txt') => functionCallResponse({ name: 'read_file', args: { file_path } });
const helper = (over: Partial<AgentDefinition> = {}): AgentDefinition => ({
  ...generalistAgent,
  name: 'helper',
  description: 'A test helper agent.',
  tools: ['read_file'],
  ...over,
});
/** `size` characters of distinct numbered findings (nothing JSON escapes), so that a preview or a cut shows. */
const longText = (size: number) =>
  Array.from({ length: Math.ceil(size / 40) }, (_, i) => `Finding ${String(i).padStart(4, '0')}: `.padEnd(39, '.'))
    .join(' ')
    .slice(0, size);
async function childId(parentId: string): Promise<string> {
  for await (const wf of h.env.client.workflow.list({ query: `WorkflowType = 'subagentWorkflow'` }))
    if (wf.workflowId.startsWith(`${parentId}--`)) return wf.workflowId;
  throw new Error('no child workflow');
}
const childEvents = async (parentId: string) =>
  (await h.env.client.workflow.getHandle(await childId(parentId)).query(eventsQuery, 0)).events;

describe('read_tool_output needs nobody', () => {
  test.each<ApprovalMode>(['default', 'auto_edit', 'plan'])(
    'in %s mode it runs without an approval and the model gets the stored text',
    async (approvalMode) => {
      const ref = await h.store.putBlob(`masked output of an earlier tool: 42 widgets (${approvalMode})`);
      const r = await h.run(
        [functionCallResponse({ name: 'read_tool_output', args: { ref } }), textResponse('There are 42 widgets.')],
        { approvalMode, approvalTimeoutMs: 3000 },
      );
      expect(r.result?.response).toBe('There are 42 widgets.');
      expect(lastResponse(1)).toContain(`42 widgets (${approvalMode})`);
      expect(r.events.some((e) => e.type === 'tool_call_awaiting_approval')).toBe(false);
      if (approvalMode === 'default') await maybeRecordHistory(h, r.workflowId, 'read-tool-output-default');
    },
  );
});

test('a 6,000-character codebase_investigator report reaches the parent whole, and not through its history', async () => {
  const summary = longText(6000);
  const report = { SummaryOfFindings: summary, ExplorationTrace: ['listed the root'], RelevantLocations: [] };
  const r = await h.run([invoke('codebase_investigator'), complete({ report }), textResponse('ok')], {
    workspace: h.workspace({ 'a.txt': 'A' }),
  });
  expect(r.result?.response).toBe('ok');
  expect(lastResponse(2)).toContain(summary);
  expect(lastResponse(2)).toMatch(/^Agent 'codebase_investigator' finished\.\nTermination reason: goal/);
  const history = await h.env.client.workflow.getHandle(r.workflowId).fetchHistory();
  const bytes = Buffer.from(temporal.api.history.v1.History.encode(history).finish());
  expect(bytes.includes(summary.slice(1000, 3000))).toBe(false);
  await maybeRecordHistory(h, r.workflowId, 'subagent-long-report');
});

test('a long invoke_agent prompt reaches the sub-agent whole', async () => {
  const task = longText(3000);
  const r = await h.run([invoke('helper', task), complete({ result: 'done' }), textResponse('ok')], {
    agents: [helper()],
  });
  expect(r.result?.response).toBe('ok');
  const first = (h.fake.requests[1].body as { contents: { parts: { text?: string }[] }[] }).contents[0];
  expect(first.parts[0].text).toBe(task);
});

test('an AfterTool hook on invoke_agent reads the whole long report', async () => {
  const ws = h.workspace();
  const summary = longText(6000);
  const report = { SummaryOfFindings: summary, ExplorationTrace: [], RelevantLocations: [] };
  const hooks = hooksOn('AfterTool', [saveAndAnswer('after.json')], { matcher: 'invoke_agent' });
  const r = await h.run([invoke('codebase_investigator'), complete({ report }), textResponse('ok')], {
    workspace: ws,
    hooks,
  });
  expect(r.result?.response).toBe('ok');
  const seen = JSON.parse(fs.readFileSync(path.join(ws, 'after.json'), 'utf8')) as { tool_response: unknown };
  expect(JSON.stringify(seen.tool_response)).toContain(summary);
});

test('a sub-agent sends its definition’s sampling settings on every request: the investigator’s 0.1 and 0.95', async () => {
  const report = { SummaryOfFindings: 's', ExplorationTrace: [], RelevantLocations: [] };
  const list = functionCallResponse({ name: 'list_directory', args: { dir_path: '.' } });
  const r = await h.run([invoke('codebase_investigator'), list, complete({ report }), textResponse('ok')]);
  expect(lastResponse(3)).toContain('Termination reason: goal');
  expect(r.result?.response).toBe('ok');
  // The settings are part of the request frame, which later requests of a run send by reference.
  for (const i of [1, 2]) expect(body(i).generationConfig).toMatchObject({ temperature: 0.1, topP: 0.95 });
  // The main agent's requests carry the model's own chat config.
  for (const i of [0, 3]) expect(body(i).generationConfig?.temperature).toBe(1);
});

test('a sub-agent falls back to the fast model when quota errors outlast the retries', async () => {
  const quota = errorLine(429, 'RESOURCE_EXHAUSTED', 'quota exceeded');
  const r = await h.run([invoke('helper'), quota, quota, complete({ result: 'from flash' }), textResponse('ok')], {
    agents: [helper({ model: 'gemini-2.5-pro' })],
    modelMaxAttempts: 2,
  });
  expect(r.result?.response).toBe('ok');
  expect(models().slice(1, 4)).toEqual([
    'generateContentStream:gemini-2.5-pro',
    'generateContentStream:gemini-2.5-pro',
    'generateContentStream:gemini-2.5-flash',
  ]);
  expect(lastResponse(4)).toContain('from flash');
  await maybeRecordHistory(h, await childId(r.workflowId), 'subagent-fallback');
});

test('a sub-agent whose model is auto is routed once, as the prompt is', async () => {
  const classifier = {
    method: 'generateContent' as const,
    response: {
      candidates: [
        {
          content: { role: 'model', parts: [{ text: JSON.stringify({ reasoning: 'simple', model_choice: 'flash' }) }] },
          finishReason: 'STOP',
        },
      ],
    },
  };
  const r = await h.run([invoke('helper'), classifier, read(), complete({ result: 'routed' }), textResponse('ok')], {
    workspace: h.workspace({ 'a.txt': 'A' }),
    agents: [helper({ model: 'auto' })],
  });
  expect(r.result?.response).toBe('ok');
  expect(models().slice(1, 4)).toEqual([
    'generateContent:gemini-3.5-flash-lite',
    'generateContentStream:gemini-3.8-flash',
    'generateContentStream:gemini-3.8-flash',
  ]);
});

test('a sub-agent past half its window compresses first, and a request that cannot fit is not sent', async () => {
  const huge = streamLine([
    {
      candidates: [
        {
          content: { role: 'model', parts: [{ functionCall: { name: 'read_file', args: { file_path: 'a.txt' } } }] },
          finishReason: 'STOP',
        },
      ],
      usageMetadata: { promptTokenCount: 1_040_000, candidatesTokenCount: 5, totalTokenCount: 1_040_005 },
    },
  ]);
  const ws = h.workspace({ 'a.txt': `${'x'.repeat(99)}\n`.repeat(390) });
  const r = await h.run([invoke('helper'), huge, textResponse('ok')], {
    workspace: ws,
    agents: [helper()],
  });
  expect(r.result?.response).toBe('ok');
  expect(h.fake.requests).toHaveLength(3);
  expect(lastResponse(2)).toMatch(/^Agent 'helper' failed\. Error: The next request \(about \d+ tokens\) does not fit/);
  const types = (await childEvents(r.workflowId)).map((e) => e.type);
  // The child's transcript has one plain user message, so there is nothing to summarise: a noop.
  expect(types.filter((t) => t === 'chat_compressed' || t === 'context_window_will_overflow')).toEqual([
    'chat_compressed',
    'context_window_will_overflow',
  ]);
  await maybeRecordHistory(h, await childId(r.workflowId), 'subagent-overflow');
});

test('a sub-agent that ends without output tells the parent what happened and what was kept', async () => {
  const r = await h.run([invoke('helper'), read(), read(), textResponse('still nothing'), textResponse('ok')], {
    workspace: h.workspace({ 'a.txt': 'A' }),
    agents: [helper({ maxTurns: 2 })],
  });
  expect(r.result?.response).toBe('ok');
  const told = lastResponse(4);
  expect(told).toContain('Termination reason: max_turns');
  expect(told).toContain('Agent reached max turns limit (2).');
  expect(told).toMatch(/no output was kept/);
  expect(told).toMatch(/Changes it made to files in the workspace remain/);
});
