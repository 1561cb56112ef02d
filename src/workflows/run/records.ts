import { upsertSearchAttributes } from '@temporalio/workflow';
import type { AgentEvent, AgentEventBody } from '../../core/events';
import { STATUS_ATTRIBUTE, type AgentStatusValue } from '../../core/search-attributes';
import { addUsage, EMPTY_USAGE, type ApprovalMode, type TokenUsage } from '../../core/types';
import { countEvent } from '../state/metrics';
import type { PromptState } from '../state/prompt-state';

/**
 * The run's records, written only here: its event log, its status search attribute, its token counts and its
 * approval mode. The other modules call these; none writes those pieces of the state itself.
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
    state.pause?.kind === 'cost'
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

/** Tokens of utility calls (routing, loop checks, next speaker, compression), per model. */
export function recordUtilityUsage(state: PromptState, usage: Record<string, TokenUsage> | undefined): void {
  for (const [model, u] of Object.entries(usage ?? {})) addModelUsage(state, model, u);
}

export function recordUsage(state: PromptState, model: string, usage: TokenUsage): void {
  if (usage.input > 0) state.context.lastPromptTokens = usage.input;
  addModelUsage(state, model, usage);
}

/** A sub-agent's tokens: its total, then each of its models. */
export function recordChildUsage(state: PromptState, total: TokenUsage, models: Record<string, TokenUsage>): void {
  state.progress.stats.usage = addUsage(state.progress.stats.usage, total);
  for (const [model, usage] of Object.entries(models)) {
    state.progress.stats.models[model] = addUsage(state.progress.stats.models[model] ?? EMPTY_USAGE, usage);
  }
}

function addModelUsage(state: PromptState, model: string, usage: TokenUsage): void {
  state.progress.stats.usage = addUsage(state.progress.stats.usage, usage);
  state.progress.stats.models[model] = addUsage(state.progress.stats.models[model] ?? EMPTY_USAGE, usage);
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
