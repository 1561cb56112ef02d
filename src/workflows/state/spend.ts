import type { RequestBound } from '../../core/spend-limit';
import type { PromptResult, PromptStats } from '../api';

/** What a run has spent so far in US dollars, by its stats (its finished sub-agents included). */
export function spentUsd(stats: PromptStats): number {
  void stats;
  return 0;
}

/** The most one request could cost in US dollars; undefined when its model has no known price. */
export function requestWorstCaseUsd(bound: RequestBound): number | undefined {
  void bound;
  return undefined;
}

/** What a finished prompt spent, from its result (0 when unknown: a prompt cancelled on its own returns nothing). */
export function resultSpentUsd(result: Partial<PromptResult>): number {
  return result.stats ? spentUsd(result.stats) : 0;
}
