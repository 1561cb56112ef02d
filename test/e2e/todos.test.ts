import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, maybeRecordHistory, type Harness } from '../helpers/agent-harness';
import { createPromptState } from '../../src/workflows/state/prompt-state';
import { carryOf } from '../../src/workflows/prompt/carry';
import { statusQuery, type PromptInput } from '../../src/workflows/api';

/**
 * `write_todos` end to end: the workflow keeps the list (no activity, no approval), answers bad lists with an
 * error the model can read, shows the list in `status` and as a `todos` event, and carries it across
 * continue-as-new.
 */
type Response = { output?: string; error?: string };
type Contents = { contents: { parts: { functionResponse?: { name: string; response: Response } }[] }[] };

let h: Harness;
beforeAll(async () => {
  h = await createHarness('todos');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

const plan = [
  { description: 'Read the code', status: 'completed' },
  { description: 'Fix the bug', status: 'in_progress' },
  { description: 'Run the tests', status: 'pending' },
];

/** The function responses of request `n` (0-based), in call order. */
function responsesOf(n: number): Response[] {
  const contents = (h.fake.requests[n].body as Contents).contents;
  return contents[contents.length - 1].parts.map((p) => p.functionResponse!.response);
}

test('the list is kept in the prompt, shown in status and as an event, without asking in default mode', async () => {
  const run = await h.run(
    [functionCallResponse({ name: 'write_todos', args: { todos: plan } }), textResponse('done')],
    { approvalMode: 'default' },
  );
  expect(run.result?.terminateReason).toBe('completed');
  const [answer] = responsesOf(1);
  expect(answer.error).toBeUndefined();
  expect(answer.output).toContain('2. [in_progress] Fix the bug');
  expect(run.result?.todos).toEqual(plan);
  expect(run.status.todos).toEqual(plan);
  expect(run.events.filter((e) => e.type === 'todos')).toEqual([expect.objectContaining({ todos: plan })]);
  expect(run.events.some((e) => e.type === 'tool_call_awaiting_approval')).toBe(false);
  await maybeRecordHistory(h, run.workflowId, 'prompt-write-todos');
});

test('bad lists are answered with a clear error and leave the last good list in place', async () => {
  const twoWorking = plan.map((t) => ({ ...t, status: 'in_progress' }));
  const run = await h.run(
    [
      functionCallResponse({ name: 'write_todos', args: { todos: plan } }),
      functionCallResponse([
        { name: 'write_todos', args: { todos: twoWorking } },
        { name: 'write_todos', args: { todos: [{ description: 'x', status: 'finished' }] } },
        { name: 'write_todos', args: { todos: [{ description: '  ', status: 'pending' }] } },
        { name: 'write_todos', args: {} },
      ]),
      textResponse('done'),
    ],
    { approvalMode: 'plan' },
  );
  expect(run.result?.terminateReason).toBe('completed');
  const errors = responsesOf(2).map((r) => r.error);
  expect(errors[0]).toMatch(/only one task may be in_progress at a time \(3 are\)/);
  expect(errors[1]).toMatch(/todos\.0\.status/);
  expect(errors[2]).toMatch(/todos\.0\.description.*must not be blank/);
  expect(errors[3]).toMatch(/missing required parameter "todos"/);
  expect(run.status.todos).toEqual(plan);
});

test('a run continued as new keeps the list, and a carry from before the list still resumes', async () => {
  const workspace = h.workspace();
  const input: PromptInput = {
    prompt: 'go on',
    workspace,
    model: 'gemini-test-model',
    approvalMode: 'yolo',
    maxTurns: 9,
  };
  const state = createPromptState(input);
  state.progress.todos = [{ description: 'Carried over', status: 'in_progress' }];
  const transcriptId = `todos-carry-${Date.now()}`;
  const carry = carryOf(state, { transcriptId, length: 0, append: [{ kind: 'text', text: 'go on' }] });
  const handle = await h.start([textResponse('still working')], { workspace, resume: carry });
  const status = await handle.query(statusQuery);
  const run = await h.finish(handle);
  expect(status.todos).toEqual([{ description: 'Carried over', status: 'in_progress' }]);
  expect(run.status.todos).toEqual([{ description: 'Carried over', status: 'in_progress' }]);

  const oldProgress = { ...carry.progress };
  delete oldProgress.todos;
  const old = await h.run([textResponse('old carry')], {
    workspace,
    resume: { ...carry, progress: oldProgress, cursor: { ...carry.cursor, transcriptId: `${transcriptId}-old` } },
  });
  expect(old.result?.terminateReason).toBe('completed');
  expect(old.status.todos).toBeUndefined();
});
