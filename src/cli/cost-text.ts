import { addCosts, costKnown, EMPTY_COST, type CostStats } from '../core/cost';
import type { PromptStats } from '../core/prompt-stats';

/** Dollars as people read them: cents above a dollar, four decimals below (short prompts cost fractions of a cent). */
export function usd(value: number): string {
  return `$${value.toFixed(value >= 1 ? 2 : 4)}`;
}

/**
 * A cost on one line: `cost: $0.0123`, or, when some tokens have no price, `cost: unknown (no price for m; $0.0100
 * for the rest)`. Undefined for counts from before costs were recorded.
 */
export function costLine(cost: CostStats | undefined, label = 'cost'): string | undefined {
  if (!cost) return undefined;
  if (costKnown(cost)) return `${label}: ${usd(cost.usd)}`;
  return `${label}: unknown (no price for ${cost.unpriced.join(', ')}; ${usd(cost.usd)} for the rest)`;
}

/** The cost a report holds: none recorded yet and no tokens counted means nothing spent. */
export function costOfStats(stats: PromptStats | undefined): CostStats | undefined {
  if (!stats) return undefined;
  return stats.cost ?? (stats.usage.total === 0 ? EMPTY_COST : undefined);
}

/** Several prompts' costs as one (a session's); unknown when any of them is. */
export function sumCosts(costs: (CostStats | undefined)[]): CostStats | undefined {
  let sum = EMPTY_COST;
  for (const cost of costs) {
    if (!cost) return undefined;
    sum = addCosts(sum, cost);
  }
  return sum;
}

/**
 * The `cost` of `-o json` stats: `usd` is the total, or null when a model has no price (`unpriced` names them;
 * `pricedUsd` is what the priced ones cost).
 */
export function costJson(cost: CostStats) {
  return { usd: costKnown(cost) ? cost.usd : null, pricedUsd: cost.usd, unpriced: cost.unpriced };
}
