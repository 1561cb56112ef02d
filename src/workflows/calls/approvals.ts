import { getExternalWorkflowHandle, log, setHandler } from '@temporalio/workflow';
import { approvalModeSchema, describeIssues, toolConfirmationSchema } from '../../core/confirmation';
import { checkPayload, echo, payloadProblem } from '../../core/message-input';
import type { ApprovalMode } from '../../core/types';
import { parseToolArgs } from '../../tools';
import {
  childApprovalSchema,
  childApprovalSignal,
  confirmToolCallUpdate,
  setApprovalModeSignal,
  toolConfirmationSignal,
  type ChildApprovalNotice,
  type ToolConfirmation,
} from '../api';
import type { PromptState } from '../state/prompt-state';
import { emit, publishStatus, setMode } from '../run/records';
import { registerQuestionHandlers } from './questions';
import { decideCall, dropChildApproval, noteChildApproval } from '../run/book';

/**
 * Checks a confirmation against the prompt's state. Returns the reason it cannot apply, or
 * undefined. Shared by the signal (which logs and records the reason as an event) and the update's
 * synchronous validator (which rejects with it), so bad input never wedges the workflow (invariant 5).
 */
export function checkConfirmation(
  state: PromptState,
  payload: unknown,
): { ok: true; value: ToolConfirmation } | { ok: false; reason: string } {
  const problem = payloadProblem(payload);
  if (problem) return { ok: false, reason: `malformed toolConfirmation: ${problem}` };
  const parsed = toolConfirmationSchema.safeParse(payload);
  if (!parsed.success)
    return { ok: false, reason: `malformed toolConfirmation: ${echo(describeIssues(parsed.error), 300)}` };
  const value = parsed.data as ToolConfirmation;
  const callId = echo(value.callId);
  if (state.finished) return { ok: false, reason: `the prompt has finished; call ${callId} can no longer be decided` };
  if (!state.book.calls.has(value.callId) && state.book.childApprovals.has(value.callId)) return { ok: true, value };
  const call = state.book.calls.get(value.callId);
  if (!call) {
    const pending = [...state.book.calls.values()]
      .filter((c) => c.status === 'awaiting_approval' && !c.decision)
      .map((c) => c.callId);
    return { ok: false, reason: `unknown callId ${callId}; awaiting approval: ${pending.join(', ') || 'none'}` };
  }
  if (call.decision) return { ok: false, reason: `call ${callId} was already decided (${call.decision.outcome})` };
  if (call.status !== 'awaiting_approval')
    return { ok: false, reason: `call ${callId} is not awaiting approval (it is ${call.status})` };
  if (value.outcome === 'modify') {
    if (!value.args) return { ok: false, reason: `outcome modify needs args for call ${callId}` };
    const check = parseToolArgs(call.name, value.args);
    if (!check.ok)
      return {
        ok: false,
        reason: `modified arguments for ${call.name} are invalid: ${echo(check.error.message, 300)}`,
      };
  }
  return { ok: true, value };
}

/** Also the answers to `ask_user` questions: a person's replies, registered wherever approvals are. */
export function registerApprovalHandlers(state: PromptState): void {
  registerQuestionHandlers(state);
  setHandler(toolConfirmationSignal, (payload: unknown) => {
    const check = checkConfirmation(state, payload);
    if (!check.ok) {
      log.warn('toolConfirmation ignored', { reason: check.reason });
      emit(state, { type: 'warning', message: `toolConfirmation ignored: ${check.reason}` });
      return;
    }
    return applyConfirmation(state, check.value);
  });
  setHandler(
    confirmToolCallUpdate,
    async (confirmation: ToolConfirmation) => {
      await applyConfirmation(state, confirmation);
      return receipt(confirmation);
    },
    {
      validator: (confirmation: ToolConfirmation) => {
        const check = checkConfirmation(state, confirmation);
        if (!check.ok) throw new Error(check.reason);
      },
    },
  );
  setHandler(childApprovalSignal, (payload: unknown) => {
    const check = checkPayload('childApproval', childApprovalSchema, payload);
    if (!check.ok) return emit(state, { type: 'warning', message: check.reason });
    const notice = check.value as ChildApprovalNotice;
    noteChildApproval(state, notice);
    publishStatus(state);
  });
  setHandler(setApprovalModeSignal, (payload: unknown) => {
    const check = checkPayload('setApprovalMode', approvalModeSchema, payload);
    if (!check.ok) return emit(state, { type: 'warning', message: check.reason });
    setMode(state, (typeof check.value === 'string' ? check.value : check.value.mode) as ApprovalMode);
  });
}

/**
 * Records a decision, or relays it to the sub-agent whose call it is: the child checks it against
 * its own state (a bad `modify` there becomes a warning event in the child).
 */
async function applyConfirmation(state: PromptState, confirmation: ToolConfirmation): Promise<void> {
  const call = state.book.calls.get(confirmation.callId);
  if (call) {
    decideCall(state, call, confirmation);
    return;
  }
  const child = state.book.childApprovals.get(confirmation.callId);
  if (!child) return;
  dropChildApproval(state, confirmation.callId);
  publishStatus(state);
  await getExternalWorkflowHandle(child.childWorkflowId).signal(toolConfirmationSignal, confirmation);
}

/** What `approve`, `deny` and the in-place menu print once the answer is in (the update's result). */
function receipt({ outcome, callId }: ToolConfirmation): string {
  const what: Record<ToolConfirmation['outcome'], string> = {
    proceed_once: 'approved',
    proceed_always: 'approved, and allowed for the rest of the prompt',
    proceed_always_tool: 'approved, and its tool allowed for the rest of the prompt',
    proceed_always_server: "approved, and its server's tools allowed for the rest of the prompt",
    modify: 'approved with the modified arguments',
    cancel: 'denied',
  };
  return `call ${callId} ${what[outcome]}`;
}
