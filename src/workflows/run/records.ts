import { upsertSearchAttributes } from '@temporalio/workflow';
import type { AgentEvent, AgentEventBody } from '../../core/events';
import { STATUS_ATTRIBUTE, type AgentStatusValue } from '../../core/search-attributes';
import {
  addUsage,
  EMPTY_USAGE,
  type ApprovalMode,
  type ModelTurn,
  type RequestUsage,
  type TokenUsage,
  type ToolOutcome,
} from '../../core/types';
import { addCosts, addRequestCost, costOfModels, type CostStats } from '../../core/cost';
import { MODEL_PRICES, withPriceOverrides, type PriceTable } from '../../core/models';
import type { PromptStats } from '../api';
import { countCost, countEvent } from '../state/metrics';
import type { PromptState } from '../state/prompt-state';

/**
 * The run's records, written only here: its event log, its status search attribute, its token counts and cost, and
 * its approval mode. The other modules call these; none writes those pieces of the state itself.
 */

/** Appends an event; `time` is workflow time, so replay rebuilds the same log. */
export function emit(state: PromptState, body: AgentEventBody): void {
  state.log.events.push({
    ...body,
    seq: state.log.base + state.log.events.length,
    time: new Date().toISOString(),
  } as AgentEvent);
  countEvent(state.metrics, body, state.progress.model);
}

/** Mirrors "a call awaits approval" into the status search attribute, when the cluster has it. */
export function publishStatus(state: PromptState): void {
  if (!state.input.searchAttributes) return;
  const calls = [...state.book.calls.values()];
  const waiting = state.book.childApprovals.size > 0 || calls.some((c) => c.status === 'awaiting_approval');
  const asking = calls.some((c) => c.status === 'awaiting_answer');
  const value: AgentStatusValue =
    state.pause?.kind === 'cost' || (state.book.childCostPauses?.size ?? 0) > 0
      ? 'budget_exhausted'
      : waiting
        ? 'awaiting_approval'
        : asking
          ? 'awaiting_answer'
          : 'running';
  if (state.progress.publishedStatus === value) return;
  state.progress.publishedStatus = value;
  upsertSearchAttributes([{ key: STATUS_ATTRIBUTE, value }]);
}

/**
 * Tokens of utility calls (routing, loop checks, next speaker, compression, edit fixing, the web tools), from the
 * activity's result: each request when it lists them (`requests`), else each model's sum as one request (results
 * recorded before the list existed).
 */
export function recordUtilityUsage(
  state: PromptState,
  result: { usage?: Record<string, TokenUsage>; requests?: RequestUsage[] } | undefined,
): void {
  if (result?.requests) for (const r of result.requests) addModelUsage(state, r.model, r.usage);
  else for (const [model, u] of Object.entries(result?.usage ?? {})) addModelUsage(state, model, u);
}

/** A tool's outcome with the model requests it made counted (the web tools), and taken off what the call keeps. */
export function recordToolUsage(state: PromptState, outcome: ToolOutcome): ToolOutcome {
  if (!outcome.requests) return outcome;
  recordUtilityUsage(state, { requests: outcome.requests });
  const kept = { ...outcome };
  delete kept.requests;
  return kept;
}

/** A main turn's tokens: its answer's, and those of the tries inside its call whose answers were dropped. */
export function recordTurnUsage(state: PromptState, turn: Pick<ModelTurn, 'model' | 'usage' | 'droppedTries'>): void {
  for (const usage of turn.droppedTries ?? []) addModelUsage(state, turn.model, usage);
  if (turn.usage.input > 0) state.context.lastPromptTokens = turn.usage.input;
  addModelUsage(state, turn.model, turn.usage);
}

/** A sub-agent's tokens and cost: its total, then each of its models (its cost priced from them if it has none). */
export function recordChildUsage(state: PromptState, stats: PromptStats): void {
  const spent = costSoFar(state);
  state.progress.stats.usage = addUsage(state.progress.stats.usage, stats.usage);
  for (const [model, usage] of Object.entries(stats.models)) {
    state.progress.stats.models[model] = addUsage(state.progress.stats.models[model] ?? EMPTY_USAGE, usage);
  }
  state.progress.stats.cost = addCosts(spent, stats.cost ?? costOfModels(stats.models, pricesOf(state)));
}

function addModelUsage(state: PromptState, model: string, usage: TokenUsage): void {
  const spent = costSoFar(state);
  state.progress.stats.usage = addUsage(state.progress.stats.usage, usage);
  state.progress.stats.models[model] = addUsage(state.progress.stats.models[model] ?? EMPTY_USAGE, usage);
  const cost = addRequestCost(spent, model, usage, pricesOf(state));
  if (cost.usd > spent.usd) countCost(model, cost.usd - spent.usd);
  state.progress.stats.cost = cost;
}

/** The catalogue's prices with the settings' over them. */
export function pricesOf(state: PromptState): PriceTable {
  return withPriceOverrides(MODEL_PRICES, state.input.modelPrices);
}

/**
 * What the run has spent so far, in USD, sub-agents included. A run carried over from before prompts priced their
 * requests has token counts and no cost: they are priced as they stand.
 */
export function costSoFar(state: PromptState): CostStats {
  return state.progress.stats.cost ?? costOfModels(state.progress.stats.models, pricesOf(state));
}

/** A tool call ended, well or not. */
export function countToolCall(state: PromptState, ok: boolean): void {
  state.progress.stats.toolCalls.total += 1;
  state.progress.stats.toolCalls[ok ? 'success' : 'failed'] += 1;
}

/** The one place the approval mode changes, so every change is an event watchers see. */
export function setMode(state: PromptState, mode: ApprovalMode): void {
  if (state.progress.mode === mode) return;
  state.progress.mode = mode;
  emit(state, { type: 'approval_mode', mode });
}
