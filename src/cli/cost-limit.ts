import { formatUsd } from '../core/spend-limit';
import type { AgentEvent } from '../core/events';
import { selfCommand } from '../runtime/self-command';

type CostLimitEvent = Extract<AgentEvent, { type: 'cost_limit_reached' }>;
type BudgetEvent = Extract<AgentEvent, { type: 'budget_exhausted' }>;

/** What the pause is and how to answer it, in the words of both output formats. */
function costLimitMessage(e: CostLimitEvent, workflowId: string): string {
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

/** stream-json: Gemini CLI's `error` line (a warning its consumers show), with the numbers to read. */
export function costLimitLine(e: CostLimitEvent, workflowId: string): Record<string, unknown> {
  const { spentUsd, limitUsd, nextRequestUsd, model, request } = e;
  return {
    type: 'error',
    severity: 'warning',
    message: costLimitMessage(e, workflowId),
    cost_limit: { spent_usd: spentUsd, limit_usd: limitUsd, next_request_usd: nextRequestUsd, model, request },
  };
}
