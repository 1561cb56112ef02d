import * as fs from 'node:fs';
import type { WorkflowFailedError } from '@temporalio/client';
import { functionCallResponse, streamLine, textResponse } from '../../src/fake-gemini';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, maybeRecordHistory, type Harness } from '../helpers/agent-harness';
import { withoutSessionContext } from '../helpers/sent-parts';

type Part = {
  text?: string;
  functionCall?: { id: string; name: string; args: Record<string, unknown> };
  functionResponse?: { id: string; name: string; response: { output?: string; error?: string } };
};
type Body = {
  contents: { role: string; parts: Part[] }[];
  systemInstruction?: unknown;
  tools?: { functionDeclarations: { name: string }[] }[];
};

let h: Harness;
beforeAll(async () => {
  h = await createHarness('loop');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

const body = (i: number) => h.fake.requests[i].body as Body;

test('a text-only answer completes in one model turn', async () => {
  const run = await h.run([textResponse('Hello from the model.')], { prompt: 'say hello' });
  expect(run.result).toMatchObject({ terminateReason: 'completed', response: 'Hello from the model.', turns: 1 });
  expect(run.status).toMatchObject({ status: 'completed', response: 'Hello from the model.', turns: 1 });
  expect(h.fake.requests).toHaveLength(1);
  const [first] = body(0).contents;
  expect(body(0).contents).toHaveLength(1);
  expect({ ...first, parts: withoutSessionContext(first.parts) }).toEqual({
    role: 'user',
    parts: [{ text: 'say hello' }],
  });
  expect(JSON.stringify(body(0).systemInstruction)).toContain('Workspace root');
  const declared = body(0).tools![0].functionDeclarations.map((d) => d.name);
  expect(declared).toEqual(
    expect.arrayContaining([
      'read_file',
      'write_file',
      'replace',
      'list_directory',
      'glob',
      'grep_search',
      'run_shell_command',
    ]),
  );
  expect(run.events.map((e) => e.type)).toEqual(['user_prompt', 'model_info', 'content', 'finished']);
  expect(h.fake.leftovers()).toHaveLength(0);
  await maybeRecordHistory(h, run.workflowId, 'text-only');
});

test('a tool round trip sends exactly one function response with the tool output', async () => {
  const workspace = h.workspace({ 'notes.txt': 'alpha\nbeta\n' });
  const run = await h.run(
    [
      functionCallResponse({ name: 'read_file', args: { file_path: 'notes.txt' } }),
      textResponse('The file has two lines.'),
    ],
    { workspace },
  );
  expect(run.result?.response).toBe('The file has two lines.');
  const second = body(1).contents;
  expect(second).toHaveLength(3);
  expect(second[1].parts[0].functionCall).toMatchObject({ name: 'read_file', args: { file_path: 'notes.txt' } });
  const responses = second[2].parts;
  expect(responses).toHaveLength(1);
  expect(responses[0].functionResponse!.id).toBe(second[1].parts[0].functionCall!.id);
  expect(responses[0].functionResponse!.response.output).toContain('beta');
  expect(run.status.stats?.toolCalls).toEqual({ total: 1, success: 1, failed: 0 });
  await maybeRecordHistory(h, run.workflowId, 'tool-round-trip');
});

test('several read-only calls of one turn all run and answer in call order', async () => {
  const workspace = h.workspace({ 'a.txt': 'AAA', 'b.txt': 'BBB', 'sub/c.txt': 'CCC' });
  const calls = [
    { name: 'read_file', args: { file_path: 'a.txt' } },
    { name: 'list_directory', args: { dir_path: '.' } },
    { name: 'read_file', args: { file_path: 'b.txt' } },
    { name: 'glob', args: { pattern: '**/*.txt' } },
  ];
  const run = await h.run([functionCallResponse(calls), textResponse('done')], { workspace });
  expect(run.result?.terminateReason).toBe('completed');
  const responses = body(1).contents[2].parts.map((p) => p.functionResponse!);
  expect(responses.map((r) => r.name)).toEqual(['read_file', 'list_directory', 'read_file', 'glob']);
  expect(responses[0].response.output).toContain('AAA');
  expect(responses[2].response.output).toContain('BBB');
  expect(responses[3].response.output).toContain('c.txt');
  expect(new Set(responses.map((r) => r.id)).size).toBe(4);
  await maybeRecordHistory(h, run.workflowId, 'parallel-reads');
});

test('mutating calls run in order: a write, then a shell command that reads it', async () => {
  const workspace = h.workspace();
  const calls = [
    { name: 'write_file', args: { file_path: 'out/x.txt', content: 'first' } },
    { name: 'run_shell_command', args: { command: 'cat out/x.txt && echo second >> out/x.txt' } },
    { name: 'read_file', args: { file_path: 'out/x.txt' } },
  ];
  const run = await h.run([functionCallResponse(calls), textResponse('ok')], { workspace });
  const responses = body(1).contents[2].parts.map((p) => p.functionResponse!.response);
  expect(responses[1].output).toContain('first');
  expect(responses[2].output).toContain('second');
  expect(fs.readFileSync(`${workspace}/out/x.txt`, 'utf8')).toBe('firstsecond\n');
  expect(run.result?.terminateReason).toBe('completed');
});

test('the turn limit ends the prompt with the turn-limit state and a whole transcript', async () => {
  const workspace = h.workspace({ 'a.txt': 'x' });
  const loop = functionCallResponse({ name: 'read_file', args: { file_path: 'a.txt' } });
  const run = await h.run([loop, loop, loop], { workspace, maxTurns: 3 });
  expect((run.error as WorkflowFailedError).cause?.message).toContain('limit of 3 model turns');
  expect(run.status).toMatchObject({ status: 'failed', turns: 3, error: { type: 'TurnLimit' } });
  expect(run.events.some((e) => e.type === 'max_turns')).toBe(true);
  expect(h.fake.requests).toHaveLength(3);
  const transcript = await h.store.readMessages(run.workflowId, 7);
  expect(transcript[6].parts?.[0].functionResponse?.name).toBe('read_file');
  await maybeRecordHistory(h, run.workflowId, 'turn-limit');
});

test('thoughts become events and never enter the transcript', async () => {
  const chunk = {
    candidates: [
      {
        content: { role: 'model', parts: [{ text: '**Planning** look first', thought: true }, { text: 'Answer.' }] },
        finishReason: 'STOP',
      },
    ],
    usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 2, thoughtsTokenCount: 3, totalTokenCount: 10 },
  };
  const run = await h.run([streamLine([chunk])]);
  expect(run.events.find((e) => e.type === 'thought')).toMatchObject({
    subject: 'Planning',
    description: 'look first',
  });
  const transcript = await h.store.readMessages(run.workflowId, 2);
  expect(transcript[1]).toEqual({ role: 'model', parts: [{ text: 'Answer.' }] });
  expect(run.status.stats?.usage).toMatchObject({ input: 5, output: 2, thoughts: 3, total: 10 });
});
