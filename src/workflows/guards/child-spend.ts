import { getExternalWorkflowHandle, setHandler } from '@temporalio/workflow';
import { checkPayload } from '../../core/message-input';
import { formatUsd } from '../../core/spend-limit';
import { childCostPauseSchema, type TopUp } from '../../core/signal-schemas';
import { topUpBudgetSignal } from '../api';
import { childCostPauseSignal } from '../spend-signals';
import type { PromptRun } from '../run/prompt-run';
import { noteChildCostPause } from '../run/book';
import { raiseCostLimit, stopSpending } from '../run/context-part';
import { emit, publishStatus } from '../run/records';

/**
 * A sub-agent paused on the spending limit shows as its parent's pause: phase `budget_exhausted`, `costLimit` with
 * the child's spend and next request, the search attribute `pending` lists, and a `cost_limit_reached` event.
 */
export function registerChildSpendHandlers(run: PromptRun): void {
  const state = run.state;
  setHandler(childCostPauseSignal, (payload: unknown) => {
    const check = checkPayload('childCostPause', childCostPauseSchema, payload);
    if (!check.ok) return emit(state, { type: 'warning', message: check.reason });
    noteChildCostPause(state, check.value);
    if (check.value.paused) {
      const { spentUsd, limitUsd, nextRequestUsd, model, request } = check.value;
      emit(state, {
        type: 'cost_limit_reached',
        spentUsd,
        limitUsd,
        nextRequestUsd,
        model,
        request: `sub-agent ${request}`,
      });
    }
    publishStatus(state);
  });
}

/**
 * A `budget` answer to the prompt while a sub-agent of it is paused: forwarded to each paused child. A top-up raises
 * this prompt's limit as well (the child's spend comes back to it); a stop stops this prompt too. False when no
 * child waits for a top-up in US dollars.
 */
export async function forwardTopUp(run: PromptRun, value: TopUp): Promise<boolean> {
  const state = run.state;
  const paused = [...(state.book.childCostPauses?.keys() ?? [])];
  if (paused.length === 0 || (typeof value === 'object' && 'tokens' in value)) return false;
  for (const childWorkflowId of paused) noteChildCostPause(state, { childWorkflowId, paused: false });
  publishStatus(state);
  if (typeof value === 'object' && 'usd' in value) {
    raiseCostLimit(state, value.usd);
    emit(state, {
      type: 'warning',
      message: `spending limit raised to ${formatUsd(state.context.costLimitUsd as number)}`,
    });
  } else stopSpending(state);
  const answer = typeof value === 'object' && 'usd' in value ? { usd: value.usd } : 'stop';
  await Promise.all(paused.map((id) => getExternalWorkflowHandle(id).signal(topUpBudgetSignal, answer)));
  return true;
}
