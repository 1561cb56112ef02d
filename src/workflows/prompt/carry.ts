import { allHandlersFinished, condition, continueAsNew, workflowInfo } from '@temporalio/workflow';
import type { PromptInput } from '../api';
import type { PromptState } from '../state/prompt-state';
import type { PromptCarry, Cursor } from '../api';

/** Events a new run keeps for watchers that are behind; older ones are summarised by `eventBase`. */
export const CARRIED_EVENTS = 100;
/** Tool calls a new run keeps for `status` (all of them are finished at the boundary). */
export const CARRIED_CALLS = 50;
/**
 * A run continues as new at this many events even before Temporal suggests it (at 4,096): a worker
 * that takes a prompt over replays its current run in one workflow task, and near 4,000 events that
 * took 8 to 9 s on a loaded 2-core machine, too close to the 10 s workflow task timeout.
 */
export const MAX_RUN_EVENTS = 2000;

/**
 * Continues the prompt as new when Temporal suggests it, or its run reached `MAX_RUN_EVENTS`. Called only between steps, where no tool
 * call is open and none awaits approval, so nothing in flight is lost; a pending approval simply
 * delays the switch to the next boundary. Running signal and update handlers finish first.
 */
export async function continueAsNewIfSuggested(state: PromptState, cursor: Cursor): Promise<void> {
  const info = workflowInfo();
  if (!(info.continueAsNewSuggested || info.historyLength >= MAX_RUN_EVENTS) || state.finished) return;
  await condition(allHandlersFinished);
  const input: PromptInput = { ...state.input, resume: carryOf(state, cursor), hookState: state.hooks };
  await continueAsNew<(input: PromptInput) => Promise<unknown>>(input);
}

function carryOf(state: PromptState, cursor: Cursor): PromptCarry {
  const dropped = Math.max(0, state.events.length - CARRIED_EVENTS);
  return {
    model: state.model,
    fellBack: state.fellBack,
    mode: state.mode,
    modeBeforePlan: state.modeBeforePlan,
    turns: state.turns,
    response: state.response,
    stats: state.stats,
    sessionRules: state.sessionRules,
    lastPromptTokens: state.lastPromptTokens,
    forceCompress: state.forceCompress,
    compressionFailed: state.compressionFailed,
    compressions: state.compressions,
    tokenBudget: state.tokenBudget,
    loop: state.loop,
    steering: state.steering,
    cursor: { transcriptId: cursor.transcriptId, length: cursor.length, append: cursor.append },
    eventBase: state.eventBase + dropped,
    events: state.events.slice(dropped),
    calls: [...state.calls.values()].slice(-CARRIED_CALLS),
    publishedStatus: state.publishedStatus,
    runs: state.runs + 1,
  };
}

/** The state of a resumed run: the carried fields over a fresh state. */
export function restoreCarry(state: PromptState, carry: PromptCarry): Cursor {
  const { cursor, calls, ...rest } = carry;
  Object.assign(state, rest);
  state.calls = new Map(calls.map((call) => [call.callId, call]));
  state.cursor = cursor;
  return cursor;
}
