import { costOf, type PriceTable } from './models';
import type { TokenUsage } from './types';

/**
 * What a prompt's model requests cost, in USD, added up one request at a time as each is recorded. A model with no
 * known price is listed in `unpriced` and left out of the sums: the cost is then unknown (a lower bound), never 0.
 */
export interface CostStats {
  /** USD of every priced request. */
  usd: number;
  /** USD per priced model. */
  models: Record<string, number>;
  /** Models whose tokens were counted with no price, in the order first seen. */
  unpriced: string[];
}

export const EMPTY_COST: CostStats = { usd: 0, models: {}, unpriced: [] };

/** `cost` with one request of `model` added: priced, or its model listed as unpriced. */
export function addRequestCost(cost: CostStats, model: string, usage: TokenUsage, prices: PriceTable): CostStats {
  const usd = costOf(model, usage, prices);
  if (usd === undefined) {
    return cost.unpriced.includes(model) ? cost : { ...cost, unpriced: [...cost.unpriced, model] };
  }
  return { ...cost, usd: cost.usd + usd, models: { ...cost.models, [model]: (cost.models[model] ?? 0) + usd } };
}

/** Two tallies as one (a sub-agent's spend added to its parent's). */
export function addCosts(a: CostStats, b: CostStats): CostStats {
  const models = { ...a.models };
  for (const [model, usd] of Object.entries(b.models)) models[model] = (models[model] ?? 0) + usd;
  const unpriced = [...a.unpriced, ...b.unpriced.filter((m) => !a.unpriced.includes(m))];
  return { usd: a.usd + b.usd, models, unpriced };
}

/**
 * The cost of usage recorded before prompts counted cost (an older run's carry or result): each model's sum priced
 * as one request, which is exact unless one of its requests crossed a long-prompt tier.
 */
export function costOfModels(models: Record<string, TokenUsage>, prices: PriceTable): CostStats {
  let cost = EMPTY_COST;
  for (const [model, usage] of Object.entries(models)) cost = addRequestCost(cost, model, usage, prices);
  return cost;
}

/** Whether every counted token had a price (the total is the whole cost). */
export function costKnown(cost: CostStats): boolean {
  return cost.unpriced.length === 0;
}
