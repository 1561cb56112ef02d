import { EMPTY_USAGE, type TokenUsage, type ToolOutcome } from '../../core/types';
import type { PromptInput } from '../api';
import { createPromptState } from '../state/prompt-state';
import { costSoFar, recordChildUsage, recordToolUsage, recordTurnUsage, recordUtilityUsage } from './records';

jest.mock('@temporalio/workflow', () => ({
  ...jest.requireActual('@temporalio/workflow'),
  workflowInfo: () => ({ workflowId: 'prompt-1', taskQueue: 'q', historyLength: 10 }),
  upsertSearchAttributes: () => undefined,
  proxySinks: () => ({ cost: { spent: () => undefined } }),
}));

const input: PromptInput = {
  prompt: 'hi',
  workspace: '/w',
  model: 'gemini-3-flash-preview',
  approvalMode: 'default',
  maxTurns: 10,
  modelPrices: { cheap: { input: 1, cachedInput: 1, output: 2, thinking: 2 } },
};
const tokens = (input: number, output = 0): TokenUsage => ({ ...EMPTY_USAGE, input, output, total: input + output });
const M = 1_000_000;

describe('the run records each request once, with its cost', () => {
  it('prices main turns and utility requests one by one, settings prices over the catalogue', () => {
    const state = createPromptState(input);
    recordTurnUsage(state, { model: 'cheap', usage: tokens(M, M) });
    recordUtilityUsage(state, {
      usage: { cheap: tokens(2 * M) },
      requests: [
        { model: 'cheap', usage: tokens(M) },
        { model: 'cheap', usage: tokens(M) },
      ],
    });
    expect(state.progress.stats.cost).toEqual({ usd: 5, models: { cheap: 5 }, unpriced: [] });
    expect(state.progress.stats.models.cheap.input).toBe(3 * M);
  });

  it('a result recorded before requests were listed counts each model sum once', () => {
    const state = createPromptState(input);
    recordUtilityUsage(state, { usage: { cheap: tokens(M), 'gemma-4-x': tokens(5) } });
    expect(state.progress.stats.cost).toEqual({ usd: 1, models: { cheap: 1 }, unpriced: ['gemma-4-x'] });
  });

  it("counts a web tool's grounded requests and keeps them out of the call's outcome", () => {
    const state = createPromptState(input);
    const outcome: ToolOutcome = { callId: 'c', name: 'google_web_search', ok: true, preview: 'p' };
    const kept = recordToolUsage(state, {
      ...outcome,
      requests: [{ model: 'gemini-3-flash-preview', usage: tokens(M) }],
    });
    expect(kept).toEqual(outcome);
    expect(state.progress.stats.cost?.models).toEqual({ 'gemini-3-flash-preview': 0.5 });
  });

  it("adds a sub-agent's cost once; an older child result without cost is priced from its models", () => {
    const state = createPromptState(input);
    recordChildUsage(state, {
      usage: tokens(M),
      models: { cheap: tokens(M) },
      toolCalls: { total: 0, success: 0, failed: 0 },
      cost: { usd: 7, models: { cheap: 7 }, unpriced: [] },
    });
    recordChildUsage(state, {
      usage: tokens(M),
      models: { cheap: tokens(M) },
      toolCalls: { total: 0, success: 0, failed: 0 },
    });
    expect(state.progress.stats.cost).toEqual({ usd: 8, models: { cheap: 8 }, unpriced: [] });
  });

  it('a run carried from before costs were counted starts from its tokens priced; dropped tries count', () => {
    const state = createPromptState(input);
    state.progress.stats.models = { cheap: tokens(M) };
    expect(state.progress.stats.cost).toBeUndefined();
    expect(costSoFar(state).usd).toBe(1);
    recordTurnUsage(state, { model: 'cheap', usage: tokens(M), droppedTries: [tokens(M)] });
    expect(state.progress.stats.cost?.usd).toBe(3);
  });
});
