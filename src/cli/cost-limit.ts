import { costLimitMessage, type CostLimitEvent } from '../runtime/pause-text';

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
