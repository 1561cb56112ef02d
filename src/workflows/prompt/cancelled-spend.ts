import { getExternalWorkflowHandle, log, workflowInfo } from '@temporalio/workflow';
import { promptSpentSignal } from '../spend-signals';
import type { PromptRun } from '../run/prompt-run';
import { costSoFar } from '../run/records';
import { isPatched, PATCHES } from '../patches';
import type { PromptSpend } from '../state/session-cost';

/**
 * A session's prompt cancelled on its own ends without a result, so the session would not learn what it spent: it
 * says so by signal before it ends. Awaited, so the signal is in the session's history before the cancellation.
 * Only a prompt with a limit (its session has one) sends it; a sub-agent's spend goes to its parent prompt.
 */
export async function reportCancelledSpend(run: PromptRun): Promise<void> {
  const limit = run.state.context.costLimitUsd;
  const { parent, workflowId } = workflowInfo();
  if (run.subagent || !parent || limit === undefined || !isPatched(PATCHES.cancelledSpendToSession)) return;
  const spend: PromptSpend = { promptId: workflowId, spentUsd: costSoFar(run.state).usd, costLimitUsd: limit };
  await getExternalWorkflowHandle(parent.workflowId)
    .signal(promptSpentSignal, spend)
    .catch((err) => log.warn('could not tell the session what the cancelled prompt spent', { err: String(err) }));
}
