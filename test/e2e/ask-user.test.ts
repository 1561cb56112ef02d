/**
 * `ask_user`: the question waits durably like an approval, shows in the status query and
 * the search attribute, and its answer, sent as the `answerQuestion` signal or the `submitAnswer`
 * update, reaches the model as the call's function response. Bad answers never wedge the prompt.
 */
import type { WorkflowHandle, WorkflowUpdateFailedError } from '@temporalio/client';
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { promptStatus } from '../../src/client';
import { answerQuestionSignal, statusQuery, submitAnswerUpdate, type PromptStatus } from '../../src/workflows/api';
import type { AgentDefinition } from '../../src/core/agents/definition';
import { generalistAgent } from '../../src/core/agents/builtins';
import { MAX_RUN_EVENTS } from '../../src/workflows/prompt/carry';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, type Harness } from '../helpers/agent-harness';
import { QUESTIONS } from '../helpers/questions';

let h: Harness;
beforeAll(async () => {
  h = await createHarness('ask-user');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

const askCall = { name: 'ask_user', args: { questions: QUESTIONS } };
const ask = (questions: unknown = QUESTIONS) => functionCallResponse({ name: 'ask_user', args: { questions } });

async function waitForQuestion(handle: WorkflowHandle, tries = 200): Promise<PromptStatus> {
  for (let i = 0; i < tries; i++) {
    const status = await handle.query(statusQuery);
    if (status.pendingQuestions?.length) return status;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('no question became pending');
}

async function waitForVisibility(workflowId: string, value: string): Promise<void> {
  const query = `DurableAgentStatus = '${value}' AND WorkflowId = '${workflowId}'`;
  for (let i = 0; i < 100; i++) {
    for await (const wf of h.env.client.workflow.list({ query })) if (wf.workflowId === workflowId) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`visibility never showed ${workflowId} as ${value}`);
}

const sentText = (index: number) => JSON.stringify(h.fake.requests[index].body);
const declared = (index: number) =>
  (
    h.fake.requests[index].body as { tools?: { functionDeclarations: { name: string }[] }[] }
  ).tools![0].functionDeclarations.map((d) => d.name);

test('a question waits in status until the answerQuestion signal; the answers are the function response', async () => {
  const handle = await h.start([ask(), textResponse('Using Postgres on 5432.')], { approvalMode: 'default' });
  const status = await waitForQuestion(handle);
  expect(status.phase).toBe('awaiting_answer');
  const callId = status.pendingQuestions![0].callId;
  expect(status.pendingQuestions![0].questions).toEqual(QUESTIONS);
  expect(status.pendingApprovals).toEqual([]);
  const report = await promptStatus(h.env.client, handle.workflowId);
  expect(report).toMatchObject({ status: 'awaiting_answer', pendingQuestions: [{ callId, questions: QUESTIONS }] });
  await waitForVisibility(handle.workflowId, 'awaiting_answer');
  // Nothing happens while the question waits: no model call, no timer.
  await new Promise((r) => setTimeout(r, 1000));
  expect(h.fake.requests).toHaveLength(1);

  await handle.signal(answerQuestionSignal, { callId, answers: { '0': 'Postgres', '1': '5432' } });
  const run = await h.finish(handle);
  expect(run.result?.response).toBe('Using Postgres on 5432.');
  expect(sentText(1)).toContain(JSON.stringify(JSON.stringify({ answers: { '0': 'Postgres', '1': '5432' } })));
  expect(run.events.find((e) => e.type === 'question_asked')).toMatchObject({ callId, questions: QUESTIONS });
  expect(run.events.find((e) => e.type === 'tool_call_response')).toMatchObject({ name: 'ask_user', ok: true });
  expect(run.status.pendingQuestions).toBeUndefined();
  // The attribute follows the prompt to its end (DurableAgentStatus='running' lists running prompts only).
  await waitForVisibility(handle.workflowId, 'completed');
});

test('bad answers are refused with a reason and never wedge the prompt; a second answer is refused', async () => {
  const handle = await h.start([ask(), { ...textResponse('noted'), delayMs: 3000 }], { approvalMode: 'yolo' });
  const callId = (await waitForQuestion(handle)).pendingQuestions![0].callId;
  const reject = async (payload: unknown) => {
    const err = await handle.executeUpdate(submitAnswerUpdate, { args: [payload] }).then(
      () => undefined,
      (e: WorkflowUpdateFailedError) => e,
    );
    return err?.cause?.message;
  };
  expect(await reject('Postgres')).toMatch(/^malformed answerQuestion: payload: /);
  expect(await reject({ callId })).toMatch(/give answers \(at least one\) or dismissed: true/);
  expect(await reject({ callId, answers: { '0': 42 } })).toMatch(/^malformed answerQuestion: answers/);
  expect(await reject({ callId: 'nope', answers: ['x'] })).toBe(
    `unknown callId nope; questions awaiting an answer: ${callId}`,
  );
  expect(await reject({ callId, answers: ['a', 'b', 'c'] })).toBe(
    `there is no question 2: call ${callId} asked 2 (numbered from 0)`,
  );
  await handle.signal(answerQuestionSignal, { callId: 'nope', answers: ['x'] });
  await handle.signal(answerQuestionSignal, 'not an object');
  expect((await handle.query(statusQuery)).pendingQuestions).toHaveLength(1);

  const receipt = await handle.executeUpdate(submitAnswerUpdate, { args: [{ callId, answers: [['SQLite']] }] });
  expect(receipt).toBe(`answer recorded for ${callId}`);
  expect(await reject({ callId, answers: ['Postgres'] })).toBe(`call ${callId} was already answered`);
  const run = await h.finish(handle);
  expect(run.result?.response).toBe('noted');
  expect(sentText(1)).toContain(JSON.stringify(JSON.stringify({ answers: { '0': 'SQLite' } })));
  const warnings = run.events.filter((e) => e.type === 'warning').map((e) => (e as { message: string }).message);
  expect(warnings).toEqual([
    `answerQuestion ignored: unknown callId nope; questions awaiting an answer: ${callId}`,
    expect.stringMatching(/^answerQuestion ignored: malformed answerQuestion/),
  ]);
});

test('a dismissed question tells the model; invalid questions are an error result at once', async () => {
  const handle = await h.start([ask(), textResponse('ok, I will choose')]);
  const callId = (await waitForQuestion(handle)).pendingQuestions![0].callId;
  await handle.signal(answerQuestionSignal, { callId, dismissed: true });
  const run = await h.finish(handle);
  expect(run.result?.response).toBe('ok, I will choose');
  expect(sentText(1)).toContain('The user dismissed the questions without answering.');

  const oneOption = [{ question: 'Which?', header: 'DB', type: 'choice', options: [{ label: 'A', description: '' }] }];
  const bad = await h.run([ask(oneOption), textResponse('fixed')]);
  expect(bad.result?.response).toBe('fixed');
  expect(bad.events.find((e) => e.type === 'question_asked')).toBeUndefined();
  expect(sentText(1)).toContain("type 'choice' needs 2 to 4 options");
});

test('with an approval timeout, an unanswered question becomes an error result and the prompt goes on', async () => {
  const run = await h.run([ask(), textResponse('I will assume Postgres')], { approvalTimeoutMs: 1500 });
  expect(run.result?.response).toBe('I will assume Postgres');
  expect(sentText(1)).toContain('No answer arrived within 1500 ms');
  expect(run.events.find((e) => e.type === 'tool_call_response')).toMatchObject({ name: 'ask_user', ok: false });
});

test('a sub-agent cannot ask: ask_user is not inherited, and listed, it gets an error result at once', async () => {
  const helper: AgentDefinition = {
    ...generalistAgent,
    name: 'helper',
    description: 'A test helper agent.',
    tools: ['read_file', 'ask_user'],
  };
  const run = await h.run(
    [
      functionCallResponse({ name: 'invoke_agent', args: { agent_name: 'helper', prompt: 'find out' } }),
      ask(),
      functionCallResponse({ name: 'complete_task', args: { result: 'decided alone' } }),
      textResponse('The helper decided alone.'),
    ],
    { agents: [helper] },
  );
  expect(run.result?.response).toBe('The helper decided alone.');
  expect(sentText(2)).toContain('ask_user is not available to sub-agents');

  // The generalist, which inherits the main agent's tools, is not offered ask_user at all.
  await h.run([
    functionCallResponse({ name: 'invoke_agent', args: { agent_name: 'generalist', prompt: 'look' } }),
    functionCallResponse({ name: 'complete_task', args: { result: 'looked' } }),
    textResponse('done'),
  ]);
  expect(declared(0)).toContain('ask_user');
  expect(declared(1)).toContain('read_file');
  expect(declared(1)).not.toContain('ask_user');
});

test('a waiting question holds off continue-as-new; once answered, the prompt switches runs and finishes', async () => {
  // Reads are local activities (about one event each): four turns stay under MAX_RUN_EVENTS at their
  // boundaries, and the fifth step's reads take the run past it before the question waits.
  const reads = Array.from({ length: 400 }, () => ({ name: 'list_directory', args: { dir_path: '.' } }));
  const busy = Array.from({ length: 4 }, () => functionCallResponse(reads));
  const handle = await h.start(
    [...busy, functionCallResponse([...reads, askCall]), textResponse('Noted after a long run.')],
    { loopDetection: false },
  );
  const callId = (await waitForQuestion(handle, 2400)).pendingQuestions![0].callId;
  expect((await handle.describe()).historyLength).toBeGreaterThan(MAX_RUN_EVENTS);
  await new Promise((r) => setTimeout(r, 500));
  expect((await handle.query(statusQuery)).runs).toBe(0);
  await handle.signal(answerQuestionSignal, { callId, answers: ['Postgres', '5432'] });
  const run = await h.finish(handle);
  expect(run.result?.response).toBe('Noted after a long run.');
  expect((await handle.query(statusQuery)).runs).toBe(1);
  const answers = JSON.stringify(JSON.stringify({ answers: { '0': 'Postgres', '1': '5432' } }));
  expect(sentText(busy.length + 1)).toContain(answers);
}, 180_000);
