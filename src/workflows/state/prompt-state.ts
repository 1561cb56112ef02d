import { upsertSearchAttributes } from '@temporalio/workflow';
import type { AgentEvent, AgentEventBody } from '../../core/events';
import type { PolicyRule } from '../../core/policy/types';
import type { AgentDefinition } from '../../core/agents/definition';
import { createLoopState, type LoopState } from '../../core/loop/detection';
import type { HookState } from '../../core/hooks/context';
import { STATUS_ATTRIBUTE, type AgentStatusValue } from '../../core/search-attributes';
import { addUsage, EMPTY_USAGE, type ApprovalMode, type TerminateReason, type TokenUsage } from '../../core/types';
import type { FrameMemo } from './request-frame';
import type { ChildApprovalNotice, EventsPage, PromptInput, PromptStats, PromptStatus } from '../api';
import type { CallRecord } from '../api';

const EVENTS_PAGE_SIZE = 500;

/** Everything a prompt knows, in workflow memory; queries read it, the loop and signals change it. */
export interface PromptState {
  input: PromptInput;
  /** The model request frame this run stored last (not carried across continue-as-new). */
  frame?: FrameMemo;
  /** The model of this prompt: `input.model`, or the routed one for `auto`; sticky. */
  model: string;
  /** The one fallback from the strong to the fast model has happened. */
  fellBack: boolean;
  mode: ApprovalMode;
  turns: number;
  finished: boolean;
  /** Sequence number of `events[0]`; older events went with earlier runs (continue-as-new). */
  eventBase: number;
  events: AgentEvent[];
  /** Runs of this prompt before the current one. */
  runs: number;
  calls: Map<string, CallRecord>;
  /** The live transcript position of the prompt (set by the workflow; read when it ends). */
  cursor?: { transcriptId: string; length: number };
  /** Set in a sub-agent: its definition (tools, output schema, limits). */
  agent?: AgentDefinition;
  /** A sub-agent's allowed tools (complete_task aside). */
  agentTools?: string[];
  /** A sub-agent's accepted complete_task output. */
  completion?: Record<string, unknown>;
  /** Sub-agents' calls awaiting approval, relayed by their child workflows, by call id. */
  childApprovals: Map<string, ChildApprovalNotice>;
  /** Allow rules added by `proceed_always`, for the rest of the prompt (and what it hands on). */
  sessionRules: PolicyRule[];
  response: string;
  stats: PromptStats;
  terminateReason?: TerminateReason;
  error?: { type: string; message: string };
  /** The mode `enter_plan_mode` left, restored by `exit_plan_mode` unless the approver picks one. */
  modeBeforePlan?: ApprovalMode;
  /** Messages sent while the prompt works, for the next model request. */
  steering: string[];
  /** `promptTokenCount` of the last response: drives compression and the overflow check. */
  lastPromptTokens: number;
  forceCompress: boolean;
  compressionFailed: boolean;
  compressions: number;
  /** Tokens this prompt may use before it pauses for a top-up (`--max-tokens`). */
  tokenBudget?: number;
  budgetPaused?: boolean;
  budgetAnswer?: number | 'stop';
  /** Loop detection state (small, plain data; see core/loop/detection). */
  loop: LoopState;
  /** A second loop detection paused the prompt until `loopDecision` arrives. */
  loopPaused?: boolean;
  loopDecision?: 'continue' | 'disable' | 'stop';
  /** Hook bookkeeping (see workflows/hooks). */
  hooks: HookState;
  /** Last value written to the status search attribute (the client starts prompts as running). */
  publishedStatus?: string;
}

export function createPromptState(input: PromptInput): PromptState {
  return {
    input,
    model: input.model,
    fellBack: false,
    mode: input.approvalMode,
    turns: 0,
    finished: false,
    eventBase: 0,
    events: [],
    runs: 0,
    calls: new Map(),
    childApprovals: new Map(),
    sessionRules: [...(input.sessionRules ?? [])],
    loop: createLoopState(input.loopDetection === false),
    steering: [],
    lastPromptTokens: 0,
    forceCompress: false,
    compressionFailed: false,
    compressions: 0,
    tokenBudget: input.maxTokens,
    response: '',
    stats: { usage: { ...EMPTY_USAGE }, models: {}, toolCalls: { total: 0, success: 0, failed: 0 } },
    publishedStatus: 'running',
    hooks: input.hookState ?? { standalone: !input.transcript && !input.parent, began: false, prompt: input.prompt, stopHookActive: false, clears: 0 },
  };
}

/** Appends an event; `time` is workflow time, so replay rebuilds the same log. */
export function emit(state: PromptState, body: AgentEventBody): void {
  state.events.push({ ...body, seq: state.eventBase + state.events.length, time: new Date().toISOString() } as AgentEvent);
}

/** Mirrors "a call awaits approval" into the status search attribute, when the cluster has it. */
export function publishStatus(state: PromptState): void {
  if (!state.input.searchAttributes) return;
  const waiting = state.childApprovals.size > 0 || [...state.calls.values()].some((c) => c.status === 'awaiting_approval');
  const value: AgentStatusValue = waiting ? 'awaiting_approval' : 'running';
  if (state.publishedStatus === value) return;
  state.publishedStatus = value;
  upsertSearchAttributes([{ key: STATUS_ATTRIBUTE, value }]);
}

/** Tokens of utility calls (routing, loop checks, next speaker, compression), per model. */
export function recordUtilityUsage(state: PromptState, usage: Record<string, TokenUsage> | undefined): void {
  for (const [model, u] of Object.entries(usage ?? {})) {
    state.stats.usage = addUsage(state.stats.usage, u);
    state.stats.models[model] = addUsage(state.stats.models[model] ?? EMPTY_USAGE, u);
  }
}

export function recordUsage(state: PromptState, model: string, usage: TokenUsage): void {
  if (usage.input > 0) state.lastPromptTokens = usage.input;
  state.stats.usage = addUsage(state.stats.usage, usage);
  state.stats.models[model] = addUsage(state.stats.models[model] ?? EMPTY_USAGE, usage);
}

export function eventsPage(state: PromptState, cursor: number): EventsPage {
  // A cursor from before this run's first event skips to it: older events are gone with their run.
  const start = Math.max(state.eventBase, Math.floor(Number(cursor) || 0));
  const events = state.events.slice(start - state.eventBase, start - state.eventBase + EVENTS_PAGE_SIZE);
  const next = start + events.length;
  return { events, next, done: state.finished && next >= state.eventBase + state.events.length };
}

function phaseOf(state: PromptState, awaitingApproval: boolean): PromptStatus['phase'] {
  if (state.finished) return 'finished';
  if (state.loopPaused) return 'loop_detected';
  if (state.budgetPaused) return 'budget_exhausted';
  return awaitingApproval ? 'awaiting_approval' : 'running';
}

export function statusOf(state: PromptState): PromptStatus {
  const calls = [...state.calls.values()];
  const pending = calls.filter((c) => c.status === 'awaiting_approval');
  return {
    phase: phaseOf(state, pending.length + state.childApprovals.size > 0),
    turns: state.turns,
    approvalMode: state.mode,
    pendingApprovals: [
      ...pending.map(({ callId, name, args }) => ({ callId, name, args })),
      ...[...state.childApprovals.values()].map(({ callId, name, args, childWorkflowId }) => ({ callId, name, args, childWorkflowId })),
    ],
    toolCalls: calls.map(({ callId, name, args, status }) => ({ callId, name, args, status })),
    response: state.finished ? state.response : undefined,
    terminateReason: state.terminateReason,
    error: state.error,
    stats: state.stats,
    eventCount: state.eventBase + state.events.length,
    runs: state.runs,
  };
}

/** The one place the approval mode changes, so every change is an event watchers see. */
export function setMode(state: PromptState, mode: ApprovalMode): void {
  if (state.mode === mode) return;
  state.mode = mode;
  emit(state, { type: 'approval_mode', mode });
}
