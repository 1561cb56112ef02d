import { allHandlersFinished, condition, continueAsNew, workflowInfo } from '@temporalio/workflow';
import type { PromptState } from '../state/prompt-state';
import { PROMPT_DEFAULTS } from '../state/settings';
import type { PromptRun } from '../run/prompt-run';
import { restorePieces } from '../run/book';
import type { AgentEvent } from '../../core/events';
import type { LoopState } from '../../core/loop/types';
import type { PolicyRule } from '../../core/policy/types';
import type { ApprovalMode } from '../../core/types';
import type { CallRecord, Cursor, PromptCarry, PromptInput, PromptStats } from '../api';

/** The carry of runs made before the prompt's state had pieces: still accepted on resume, and frozen:
 * runs recorded with it must keep resuming. */
export type FlatPromptCarry = {
  model: string;
  fellBack: boolean;
  mode: ApprovalMode;
  modeBeforePlan?: ApprovalMode;
  turns: number;
  response: string;
  stats: PromptStats;
  sessionRules: PolicyRule[];
  lastPromptTokens: number;
  forceCompress: boolean;
  compressionFailed: boolean;
  compressions: number;
  tokenBudget?: number;
  loop: LoopState;
  steering: string[];
  cursor: Cursor;
  /** Sequence number of `events[0]`: watchers keep their absolute cursors across runs. */
  eventBase: number;
  events: AgentEvent[];
  calls: CallRecord[];
  publishedStatus?: string;
  /** Runs before this one, for `status`. */
  runs: number;
};

/** Events a new run keeps for watchers that are behind; older ones are summarised by `eventBase`. */
export const CARRIED_EVENTS = 100;
/** Tool calls a new run keeps for `status` (all of them are finished at the boundary). */
export const CARRIED_CALLS = 50;
/** A run continues as new at this many events unless its input says otherwise (state/settings). */
export const MAX_RUN_EVENTS = PROMPT_DEFAULTS.maxRunEvents;

/**
 * Continues the prompt as new when Temporal suggests it, or its run reached its event cap. Called only between
 * steps, where no tool call is open and none awaits approval, so nothing in flight is lost; a pending approval simply
 * delays the switch to the next boundary. Running signal and update handlers finish first.
 */
export async function continueAsNewIfSuggested(run: PromptRun): Promise<void> {
  const { state, cursor } = run;
  const info = workflowInfo();
  const capped = info.historyLength >= runEventCap(state.settings.maxRunEvents);
  if (!(info.continueAsNewSuggested || capped) || state.finished) return;
  await condition(allHandlersFinished);
  const input: PromptInput = { ...state.input, resume: carryOf(state, cursor), hookState: state.hooks };
  await continueAsNew<(input: PromptInput) => Promise<unknown>>(input);
}

/** The input's `maxRunEvents` when it is a positive whole number; anything else keeps the default. */
export function runEventCap(maxRunEvents: unknown): number {
  return Number.isSafeInteger(maxRunEvents) && (maxRunEvents as number) > 0 ? (maxRunEvents as number) : MAX_RUN_EVENTS;
}

export function carryOf(state: PromptState, cursor: Readonly<Cursor>): PromptCarry {
  const dropped = Math.max(0, state.log.events.length - CARRIED_EVENTS);
  return {
    progress: { ...state.progress, runs: state.progress.runs + 1 },
    context: state.context,
    loop: state.loop,
    log: { base: state.log.base + dropped, events: state.log.events.slice(dropped) },
    calls: [...state.book.calls.values()].slice(-CARRIED_CALLS),
    cursor: { transcriptId: cursor.transcriptId, length: cursor.length, append: cursor.append },
  };
}

/** The state of a resumed run: each carried piece over a fresh state. */
export function restoreCarry(state: PromptState, resume: NonNullable<PromptInput['resume']>): Cursor {
  const carry = 'progress' in resume ? (resume as PromptCarry) : fromFlatCarry(resume as FlatPromptCarry);
  // Over the fresh pieces: a field the carry left out (undefined does not survive JSON) keeps its start value.
  const { loop, log, calls } = carry;
  restorePieces(state, { progress: defined(carry.progress), context: defined(carry.context), loop, log, calls });
  return carry.cursor;
}

/** A carry of the flat shape (runs from before the pieces) in pieces; a table test holds the mapping. */
export function fromFlatCarry(flat: FlatPromptCarry): PromptCarry {
  const { model, fellBack, mode, modeBeforePlan, turns, response, stats, sessionRules, publishedStatus, runs } = flat;
  const { lastPromptTokens, forceCompress, compressionFailed, compressions, steering, tokenBudget } = flat;
  return {
    progress: { model, fellBack, mode, modeBeforePlan, turns, response, stats, sessionRules, publishedStatus, runs },
    context: { lastPromptTokens, forceCompress, compressionFailed, compressions, steering, tokenBudget },
    loop: flat.loop,
    log: { base: flat.eventBase, events: flat.events },
    calls: flat.calls,
    cursor: flat.cursor,
  };
}

function defined<T extends object>(piece: T): Partial<T> {
  return Object.fromEntries(Object.entries(piece).filter(([, value]) => value !== undefined)) as Partial<T>;
}
