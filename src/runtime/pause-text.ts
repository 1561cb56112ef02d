import { formatUsd } from '../core/spend-limit';
import type { AgentEvent } from '../core/events';
import { selfCommand } from './self-command';

export type CostLimitEvent = Extract<AgentEvent, { type: 'cost_limit_reached' }>;
type BudgetEvent = Extract<AgentEvent, { type: 'budget_exhausted' }>;

/** What a spending pause is and how to answer it, in the words of every front end. */
export function costLimitMessage(e: CostLimitEvent, workflowId: string): string {
  return (
    `${formatUsd(e.spentUsd)} of the ${formatUsd(e.limitUsd)} spending limit spent; the next request ` +
    `(${e.request}, ${e.model}) could cost up to ${formatUsd(e.nextRequestUsd)}, so it was not sent: paused. ` +
    `Answer with \`${selfCommand()} budget ${workflowId} --add-usd N\` or \`--stop\``
  );
}

/** The stderr line of text output for a pause on the token budget or on the spending limit. */
export function pauseText(e: CostLimitEvent | BudgetEvent, workflowId: string): string {
  if (e.type === 'cost_limit_reached') return `[COST] ${costLimitMessage(e, workflowId)}`;
  return (
    `[BUDGET] ${e.used} of ${e.budget} tokens used: paused; answer with \`${selfCommand()} budget ` +
    `${workflowId} --add-tokens N\` or \`--stop\``
  );
}
