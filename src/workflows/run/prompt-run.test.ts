import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import { FAILURES } from '../../core/failures';
import type { FunctionCall, ModelTurn, ToolOutcome } from '../../core/types';
import type { PromptInput } from '../api';
import { step } from '../prompt-workflow';
import { settle } from '../prompt/settle';
import { INVALID_STREAM_CONTINUE_TEXT } from '../prompt/invalid-stream';
import type { PromptActivities } from '../state/activity-options';
import { createPromptState, statusOf } from '../state/prompt-state';
import { PromptRun } from './prompt-run';

/**
 * The loop's step and the turn engine without a server: plain calls on a run with stub activities. Only the
 * `@temporalio/workflow` functions that need a workflow context are replaced; `condition` waits by polling.
 */
jest.mock('@temporalio/workflow', () => ({
  ...jest.requireActual('@temporalio/workflow'),
  patched: () => true,
  workflowInfo: () => ({ workflowId: 'prompt-1', taskQueue: 'q', historyLength: 10, continueAsNewSuggested: false }),
  upsertSearchAttributes: () => undefined,
  proxySinks: () => ({ cost: { spent: () => undefined } }),
  metricMeter: {
    createCounter: () => ({ add: () => undefined }),
    createHistogram: () => ({ record: () => undefined }),
  },
  condition: (fn: () => boolean) =>
    new Promise<boolean>((resolve) => {
      const poll = () => (fn() ? resolve(true) : setImmediate(poll));
      poll();
    }),
}));

const INPUT: PromptInput = {
  prompt: 'read a.txt',
  workspace: '/w',
  model: 'gemini-2.5-pro',
  approvalMode: 'yolo',
  maxTurns: 5,
};
const USAGE = { input: 10, output: 5, cached: 0, thoughts: 0, total: 15 };

function answer(length: number, functionCalls: FunctionCall[] = [], text = ''): ModelTurn {
  return { text, thoughts: [], functionCalls, usage: USAGE, model: 'gemini-2.5-pro', transcriptLength: length };
}

/** A run at the start of a new prompt whose model answers `turns` in order and whose tools all succeed. */
function runWith(turns: (ModelTurn | Error)[], input: Partial<PromptInput> = {}) {
  const callModel = jest.fn(async () => {
    const next = turns.shift();
    if (!next) throw new Error('the model was asked once more than scripted');
    if (next instanceof Error) throw next;
    return next;
  });
  const runTool = jest.fn(
    async ({ callId, name }: { callId: string; name: string }): Promise<ToolOutcome> => ({
      callId,
      name,
      ok: true,
      response: { output: 'hello' },
      preview: 'hello',
    }),
  );
  const recordMessage = jest.fn(async ({ index }: { index: number }) => index + 1);
  const acts = { callModel, runTool, recordMessage } as unknown as PromptActivities;
  const run = new PromptRun(createPromptState({ ...INPUT, ...input }), acts);
  run.startAt({ transcriptId: 'prompt-1', length: 0, append: [{ kind: 'text', text: INPUT.prompt }] });
  return { run, callModel, runTool, recordMessage };
}

const eventTypes = (run: PromptRun) => run.state.log.events.map((e) => e.type);

describe('step', () => {
  it('a turn with a tool call: the call runs, its response waits in the cursor, the loop goes on', async () => {
    const call = { id: 'c1', name: 'read_file', args: { file_path: 'a.txt' } };
    const { run, runTool } = runWith([answer(2, [call])]);
    await expect(step(run)).resolves.toBeUndefined();
    expect(runTool).toHaveBeenCalledTimes(1);
    expect(run.cursor).toMatchObject({ transcriptId: 'prompt-1', length: 2 });
    expect(run.cursor.append).toEqual([
      { kind: 'functionResponse', callId: 'c1', name: 'read_file', response: { output: 'hello' } },
    ]);
    expect(run.openCalls).toEqual([]);
    expect(eventTypes(run)).toEqual(['tool_call_request', 'finished', 'tool_call_response']);
    expect(statusOf(run.state)).toMatchObject({ phase: 'running', turns: 1, toolCalls: [{ status: 'success' }] });
  });

  it('an answer without calls ends the prompt as completed', async () => {
    const { run } = runWith([answer(2, [], 'done')]);
    await expect(step(run)).resolves.toEqual({ kind: 'result', reason: 'completed' });
    expect(run.state.progress.response).toBe('done');
  });

  it('a model error that is an invalid answer goes on once with "Please continue"; any other is thrown', async () => {
    const invalid = new ApplicationFailure('empty answer', FAILURES.modelInvalidStream.type, true);
    const failed = new ActivityFailure('failed', 'callModel', '1', 'NON_RETRYABLE_FAILURE' as never, 'w', invalid);
    const { run } = runWith([failed, new Error('boom')]);
    await expect(step(run)).resolves.toBeUndefined();
    expect(run.cursor.append).toContainEqual({ kind: 'text', text: INVALID_STREAM_CONTINUE_TEXT });
    expect(run.cursor.length).toBe(0);
    await expect(step(run)).rejects.toThrow('boom');
  });
});

describe('the budget pause', () => {
  it('pauses on an exhausted budget, shows it in status, and resumes on a top-up', async () => {
    const { run, callModel } = runWith([answer(2, [], 'done')], { maxTokens: 10 });
    run.state.progress.stats.usage = { ...USAGE };
    expect(run.answerPause('budget', 100)).toBe(false);
    const stepping = step(run);
    await new Promise(setImmediate);
    expect(statusOf(run.state).phase).toBe('budget_exhausted');
    expect(callModel).not.toHaveBeenCalled();
    expect(run.answerPause('loop', 'continue')).toBe(false);
    expect(run.answerPause('budget', 100)).toBe(true);
    await expect(stepping).resolves.toEqual({ kind: 'result', reason: 'completed' });
    expect(run.state.context.tokenBudget).toBe(110);
    expect(run.state.pause).toBeUndefined();
  });

  it('a stop ends the prompt as it stands, its pending message recorded', async () => {
    const { run, callModel, recordMessage } = runWith([], { maxTokens: 10 });
    run.state.progress.stats.usage = { ...USAGE };
    const stepping = step(run);
    await new Promise(setImmediate);
    run.answerPause('budget', 'stop');
    await expect(stepping).resolves.toEqual({ kind: 'result', reason: 'stopped', sessionEnd: false });
    expect(callModel).not.toHaveBeenCalled();
    expect(recordMessage).toHaveBeenCalledTimes(1);
    expect(run.cursor).toMatchObject({ length: 1, append: [] });
  });
});

describe('the ending', () => {
  it('a result finishes the run once, with its transcript position', async () => {
    const { run } = runWith([answer(2, [], 'done')]);
    const ending = await step(run);
    const result = await settle(run, ending!);
    expect(result).toMatchObject({ terminateReason: 'completed', response: 'done', transcript: { length: 2 } });
    expect(statusOf(run.state)).toMatchObject({ phase: 'finished', terminateReason: 'completed', response: 'done' });
  });

  it('a failure finishes the run with its error and is thrown as a non-retryable failure', async () => {
    const { run } = runWith([]);
    const failure = settle(run, { kind: 'failure', reason: 'max_turns', type: 'TurnLimit', message: 'too many' });
    await expect(failure).rejects.toMatchObject({ type: 'TurnLimit', nonRetryable: true });
    expect(statusOf(run.state)).toMatchObject({
      phase: 'finished',
      terminateReason: 'max_turns',
      error: { type: 'TurnLimit', message: 'too many' },
    });
  });
});
