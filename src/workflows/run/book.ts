import type { FunctionCall } from '../../core/types';
import type {
  CallRecord,
  ChildApprovalNotice,
  ContextCarry,
  PromptCarry,
  PromptProgress,
  ToolConfirmation,
} from '../api';
import type { PromptState } from '../state/prompt-state';
import { countApprovalDecided } from '../state/metrics';
import type { ChildCostPause } from '../../core/signal-schemas';

/** The run's call book (its calls by id, the sub-agents' calls awaiting approval), written only here. */

/** The record of `call`: the one the book holds, or a new one it holds from now on. */
export function trackCall(state: PromptState, call: FunctionCall): CallRecord {
  const existing = state.book.calls.get(call.id);
  if (existing) return existing;
  const record: CallRecord = { callId: call.id, name: call.name, args: call.args, status: 'validating' };
  state.book.calls.set(call.id, record);
  return record;
}

/** A call of the book moves on (awaiting approval or an answer, scheduled, executing). */
export function setCallStatus(record: CallRecord, status: CallRecord['status']): void {
  record.status = status;
}

/** A hook or a person's `modify` gave the call new arguments. */
export function setCallArgs(record: CallRecord, args: CallRecord['args']): void {
  record.args = args;
}

/** The call ended with `outcome`: its status says how. */
export function settleCall(record: CallRecord, outcome: NonNullable<CallRecord['outcome']>): void {
  record.outcome = outcome;
  record.status = outcome.ok ? 'success' : outcome.errorKind === 'cancelled' ? 'cancelled' : 'error';
}

/** A person decided on a call awaiting approval; the metrics count the wait. */
export function decideCall(state: PromptState, call: CallRecord, confirmation: ToolConfirmation): void {
  call.decision = confirmation;
  countApprovalDecided(state.metrics, confirmation.callId, confirmation.outcome);
}

/** A sub-agent's call awaits approval, or no longer does. */
export function noteChildApproval(state: PromptState, notice: ChildApprovalNotice): void {
  if (notice.pending) state.book.childApprovals.set(notice.callId, notice);
  else state.book.childApprovals.delete(notice.callId);
}

/** A sub-agent paused on the spending limit, or goes on (or ended). */
export function noteChildCostPause(state: PromptState, notice: ChildCostPause): void {
  const pauses = (state.book.childCostPauses ??= new Map());
  if (notice.paused) pauses.set(notice.childWorkflowId, notice);
  else pauses.delete(notice.childWorkflowId);
}

export function dropChildApproval(state: PromptState, callId: string): void {
  state.book.childApprovals.delete(callId);
}

/** The carried calls of a resumed run. */
function restoreCalls(state: PromptState, calls: CallRecord[]): void {
  state.book.calls = new Map(calls.map((call) => [call.callId, call]));
}

/**
 * A resumed run's state: each carried piece over the fresh one (`progress` and `context` hold only the fields the
 * carry defined), and the carried calls.
 */
export function restorePieces(state: PromptState, carry: CarriedPieces): void {
  state.progress = { ...state.progress, ...carry.progress };
  state.context = { ...state.context, ...carry.context };
  Object.assign(state, { loop: carry.loop, log: carry.log });
  restoreCalls(state, carry.calls);
}

/** The carried pieces; `progress` and `context` with only their defined fields. */
type CarriedPieces = Pick<PromptCarry, 'loop' | 'log' | 'calls'> & {
  progress: Partial<PromptProgress>;
  context: Partial<ContextCarry>;
};
