import type { CostStats } from './cost';
import type { TokenUsage } from './types';

/** A prompt's counts: tokens in total and per model, what they cost, and its tool calls. */
export interface PromptStats {
  usage: TokenUsage;
  models: Record<string, TokenUsage>;
  /** USD of the requests so far, per model (sub-agents' included); absent in runs from before prompts priced them. */
  cost?: CostStats;
  toolCalls: { total: number; success: number; failed: number };
}
