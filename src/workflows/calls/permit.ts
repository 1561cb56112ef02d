import { getExternalWorkflowHandle, log, workflowInfo } from '@temporalio/workflow';
import { waitForPerson } from './wait-for-person';
import type { JsonSchema } from '../../core/agents/json-schema-check';
import { childApprovalSignal, type CallRecord } from '../api';
import type { PromptState } from '../state/prompt-state';
import { emit, publishStatus } from '../run/records';
import { beforeTool, notifyApproval } from '../hooks/tool-hooks';
import { hasHooks } from '../hooks/runner';
import { judge, policyRefuses, recheckAfterApproval, refusalOf, type Refusal } from './call-policy';
import { isPatched, PATCHES } from '../patches';
import { setCallArgs, setCallStatus } from '../run/book';

/** The steps between a valid call and its run: the policy, BeforeTool hooks, and a person where asked. */

/** Policy, BeforeTool hooks and, where either asks, a person: why the call must not run, if it must not. */
export async function permit(
  state: PromptState,
  record: CallRecord,
  outputSchema?: JsonSchema,
): Promise<Refusal | undefined> {
  const judged = await judge(state, record, undefined, outputSchema);
  const denied = refusalOf(judged);
  if (denied) return denied;
  if (!hasHooks(state, 'BeforeTool', record.name) || !isPatched(PATCHES.beforeToolFirst)) {
    if (judged.verdict.decision === 'ask_user') {
      const refusal = (await awaitApproval(state, record)) ?? (await recheckAfterApproval(state, record, outputSchema));
      if (refusal) return refusal;
    }
    const hooked = await beforeTool(state, record, (r) => policyRefuses(state, r, outputSchema));
    return hooked === 'ask' ? undefined : hooked;
  }
  let verdict = judged.verdict.decision;
  const hooked = await beforeTool(state, record, async (r) => {
    const again = await judge(state, r, undefined, outputSchema);
    verdict = again.verdict.decision;
    return refusalOf(again);
  });
  if (hooked === 'ask' || (!hooked && verdict === 'ask_user'))
    return (await awaitApproval(state, record)) ?? (await recheckAfterApproval(state, record, outputSchema));
  return hooked;
}

/** Waits (durably, for as long as it takes) for a person's decision; returns why the call won't run. */
async function awaitApproval(state: PromptState, record: CallRecord): Promise<Refusal | undefined> {
  setCallStatus(record, 'awaiting_approval');
  publishStatus(state);
  emit(state, { type: 'tool_call_awaiting_approval', callId: record.callId, name: record.name, args: record.args });
  await notifyApproval(state, record);
  await tellParent(state, record, true);
  const timeout = state.input.approvalTimeoutMs;
  const decided = await waitForPerson(() => record.decision !== undefined, timeout);
  setCallStatus(record, 'scheduled');
  publishStatus(state);
  await tellParent(state, record, false);
  if (!decided || !record.decision) {
    return { kind: 'policy_violation', message: `No approval arrived within ${timeout} ms, so the call was not run.` };
  }
  const { outcome, args, reason } = record.decision;
  if (outcome === 'cancel')
    return { kind: 'cancelled', message: `User denied execution.${reason ? ` The user said: ${reason}` : ''}` };
  if (outcome === 'modify' && args) setCallArgs(record, args);
  return undefined;
}

/** A sub-agent relays its approvals to the prompt that started it, where `pending` and `approve` find them. */
async function tellParent(state: PromptState, record: CallRecord, pending: boolean): Promise<void> {
  const parent = state.input.parent;
  if (!parent) return;
  const notice = {
    childWorkflowId: workflowInfo().workflowId,
    callId: record.callId,
    name: record.name,
    args: record.args,
    pending,
  };
  await getExternalWorkflowHandle(parent.workflowId)
    .signal(childApprovalSignal, notice)
    .catch((err) => log.warn('could not tell the parent about an approval', { err: String(err) }));
}
