import type { McpCatalog } from '../../core/mcp';
import type { AgentEvent } from '../../core/events';
import { createLoopState, type LoopState } from '../../core/loop/detection';
import { resolveModel } from '../../core/models';
import type { HookState } from '../../core/hooks/context';
import { EMPTY_USAGE, type TerminateReason } from '../../core/types';
import type { FrameMemo } from './request-frame';
import type { Pause } from '../run/pause';
import type { ChildCostPause } from '../../core/signal-schemas';
import { settingsOf, type PromptSettings } from './settings';
import { createMetricClock, type MetricClock } from './metrics';
import { spentUsd } from './spend';
import type {
  CallRecord,
  ChildApprovalNotice,
  ContextCarry,
  EventsPage,
  PromptInput,
  PromptProgress,
  PromptStatus,
} from '../api';

const EVENTS_PAGE_SIZE = 500;

/**
 * Everything a prompt knows, in workflow memory; queries read it, the loop and signals change it. The pieces that
 * outlive a run (`progress`, `context`, `loop`, `log`, `book`, and the run's cursor) are each carried whole across
 * continue-as-new (prompt/carry.ts), so a field added to one of them is carried without another line; the rest
 * belongs to this run only.
 */
export interface PromptState {
  input: PromptInput;
  /** The input with every default applied (state/settings): what the loop reads. */
  settings: PromptSettings;
  progress: PromptProgress;
  context: ContextCarry;
  /** Loop detection state (small, plain data; see core/loop/detection). */
  loop: LoopState;
  log: EventLog;
  book: CallBook;
  /** Hook bookkeeping (see prompt/agent-hooks); it travels in `input.hookState`. */
  hooks: HookState;
  /** The model request frame this run stored last (not carried: the next run stores its own). */
  frame?: FrameMemo;
  /** MCP tools discovered at the start of this run (not carried: each run discovers again). */
  mcp?: McpCatalog;
  /** Open calls' and approvals' start times for the metrics (not carried: a run counts what it saw start). */
  metrics: MetricClock;
  finished: boolean;
  terminateReason?: TerminateReason;
  error?: { type: string; message: string };
  /**
   * Set while the run waits for a person: an exhausted token budget until `topUpBudget` answers, a second loop
   * detection until `loopDecision` arrives (only between steps, never carried; see run/prompt-run).
   */
  pause?: Pause;
  /**
   * A person answered the spending limit with "stop" (or a sub-agent reached it): no request is sent any more. Not
   * carried: the prompt ends before its next step.
   */
  costStopped?: boolean;
}

/** The event log: `events[0]` has sequence number `base`; older events went with earlier runs. */
export interface EventLog {
  base: number;
  events: AgentEvent[];
}

/** The one owner of call status: this run's calls by id, and the sub-agents' calls awaiting approval. */
export interface CallBook {
  calls: Map<string, CallRecord>;
  /** Sub-agents' calls awaiting approval, relayed by their child workflows, by call id. */
  childApprovals: Map<string, ChildApprovalNotice>;
  /** Sub-agents paused on the spending limit, relayed by their child workflows, by workflow id (not carried). */
  childCostPauses?: Map<string, Extract<ChildCostPause, { paused: true }>>;
}

export function createPromptState(input: PromptInput): PromptState {
  return {
    input,
    settings: settingsOf(input),
    progress: {
      model: resolveModel(input.model, { resolutions: input.modelResolutions }),
      fellBack: false,
      mode: input.approvalMode,
      turns: 0,
      runs: 0,
      sessionRules: [...(input.sessionRules ?? [])],
      response: '',
      stats: { usage: { ...EMPTY_USAGE }, models: {}, toolCalls: { total: 0, success: 0, failed: 0 } },
      publishedStatus: 'running',
    },
    context: {
      steering: [],
      lastPromptTokens: 0,
      forceCompress: false,
      compressionFailed: false,
      compressions: 0,
      tokenBudget: input.maxTokens,
      ...(input.maxCostUsd !== undefined ? { costLimitUsd: input.maxCostUsd } : {}),
    },
    loop: createLoopState(input.loopDetection === false),
    log: { base: 0, events: [] },
    book: { calls: new Map(), childApprovals: new Map() },
    metrics: createMetricClock(),
    finished: false,
    hooks: input.hookState ?? {
      standalone: !input.transcript && !input.parent,
      began: false,
      prompt: input.prompt,
      stopHookActive: false,
      clears: 0,
    },
  };
}

export function eventsPage(state: PromptState, cursor: number): EventsPage {
  // A cursor from before this run's first event skips to it: older events are gone with their run.
  const start = Math.max(state.log.base, Math.floor(Number(cursor) || 0));
  const events = state.log.events.slice(start - state.log.base, start - state.log.base + EVENTS_PAGE_SIZE);
  const next = start + events.length;
  return { events, next, done: state.finished && next >= state.log.base + state.log.events.length };
}

function phaseOf(state: PromptState, awaitingApproval: boolean, asking: boolean): PromptStatus['phase'] {
  if (state.finished) return 'finished';
  if (state.pause?.kind === 'loop') return 'loop_detected';
  if (state.pause?.kind === 'budget' || state.pause?.kind === 'cost' || childCostPauseOf(state))
    return 'budget_exhausted';
  return awaitingApproval ? 'awaiting_approval' : asking ? 'awaiting_answer' : 'running';
}

export function statusOf(state: PromptState): PromptStatus {
  const calls = [...state.book.calls.values()];
  const pending = calls.filter((c) => c.status === 'awaiting_approval');
  const asking = calls.filter((c) => c.status === 'awaiting_answer');
  return {
    phase: phaseOf(state, pending.length + state.book.childApprovals.size > 0, asking.length > 0),
    turns: state.progress.turns,
    approvalMode: state.progress.mode,
    pendingApprovals: [
      ...pending.map(({ callId, name, args }) => ({ callId, name, args })),
      ...[...state.book.childApprovals.values()].map(({ callId, name, args, childWorkflowId }) => ({
        callId,
        name,
        args,
        childWorkflowId,
      })),
    ],
    ...(asking.length
      ? { pendingQuestions: asking.map((c) => ({ callId: c.callId, questions: c.args.questions })) }
      : {}),
    toolCalls: calls.map(({ callId, name, args, status }) => ({ callId, name, args, status })),
    response: state.finished ? state.progress.response : undefined,
    terminateReason: state.terminateReason,
    error: state.error,
    stats: state.progress.stats,
    eventCount: state.log.base + state.log.events.length,
    ...(state.input.host ? { host: state.input.host } : {}),
    runs: state.progress.runs,
    todos: state.progress.todos,
    topics: state.progress.topics,
    ...(state.progress.turnRecords ? { turnRecords: state.progress.turnRecords } : {}),
    ...costLimitOf(state),
  };
}

/** The spending limit as status shows it: the limit and the spend, and while paused the next request's cost. */
function costLimitOf(state: PromptState): Pick<PromptStatus, 'costLimit'> {
  const limitUsd = state.context.costLimitUsd;
  if (limitUsd === undefined) return {};
  const check = state.pause?.kind === 'cost' ? state.pause.check : undefined;
  const child = childCostPauseOf(state);
  return {
    costLimit: {
      limitUsd,
      // A paused sub-agent's spend is its parent's once it returns: shown with it meanwhile.
      spentUsd: spentUsd(state.progress.stats) + (child?.spentUsd ?? 0),
      ...(check ? { nextRequestUsd: check.nextRequestUsd } : child ? { nextRequestUsd: child.nextRequestUsd } : {}),
    },
  };
}

/** A sub-agent of this run paused on the spending limit, if any. */
export function childCostPauseOf(state: PromptState): Extract<ChildCostPause, { paused: true }> | undefined {
  return state.book.childCostPauses?.values().next().value;
}
