import type { PromptResult, PromptStats } from '../api';

/** What a run has spent so far in US dollars, by its stats (finished sub-agents included; 0 before costs existed). */
export function spentUsd(stats: PromptStats): number {
  return stats.cost?.usd ?? 0;
}

/** What a finished prompt spent, from its result (0 when unknown: a prompt cancelled on its own returns nothing). */
export function resultSpentUsd(result: Partial<PromptResult>): number {
  return result.stats ? spentUsd(result.stats) : 0;
}
