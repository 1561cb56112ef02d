import { z } from 'zod';
import { log } from '@temporalio/workflow';
import { formatUsd, usdSchema } from '../../core/spend-limit';
import type { PromptInput, PromptResult, SessionInput } from '../api';
import { resultSpentUsd } from './spend';

/**
 * A session's spending limit, shared by its prompts: each prompt may spend what the session has left, and what it
 * spent (and any top-up it was given while paused) comes back to the session when it ends.
 */
export interface SessionCost {
  limitUsd: number;
  spentUsd: number;
}

/** The session's limit as it starts (or continues as new): its own, or the one its defaults were started with. */
export function sessionCostOf(input: SessionInput): SessionCost | undefined {
  const limitUsd = input.costLimitUsd ?? input.defaults.maxCostUsd;
  return limitUsd === undefined ? undefined : { limitUsd, spentUsd: input.spentUsd ?? 0 };
}

/** Why `maxCostUsd` of a `sendMessage` cannot be the session's limit, or undefined when it can. */
export function sessionLimitProblem(maxCostUsd: unknown, cost: SessionCost | undefined): string | undefined {
  if (maxCostUsd === undefined) return undefined;
  const parsed = usdSchema.safeParse(maxCostUsd);
  if (!parsed.success) return `maxCostUsd ${parsed.error.issues[0].message}`;
  if (cost && parsed.data < cost.spentUsd)
    return (
      `maxCostUsd ${formatUsd(parsed.data)} is below the ${formatUsd(cost.spentUsd)} the session has already ` +
      'spent: give at least that much'
    );
  return undefined;
}

/** The new limit a `sendMessage` set (validated already). */
export function setSessionLimit(cost: SessionCost | undefined, limitUsd: number): SessionCost {
  return { limitUsd, spentUsd: cost?.spentUsd ?? 0 };
}

/** What the next prompt may spend: the session's remainder (a prompt with nothing left pauses before its request). */
export function promptCostLimit(cost: SessionCost | undefined): Pick<PromptInput, 'maxCostUsd'> {
  return cost ? { maxCostUsd: Math.max(0, cost.limitUsd - cost.spentUsd) } : {};
}

/**
 * What a prompt hands back to its session's limit: what it spent, and its limit at its end (raised by top-ups).
 * A finished or failed prompt says it in its result; one cancelled on its own sends it (`promptSpent`) as it ends.
 */
export interface PromptSpend {
  promptId: string;
  spentUsd: number;
  costLimitUsd?: number;
}

/** The spend of a prompt that returned a result (or failed with one). */
export function spendOfResult(promptId: string, result: Partial<PromptResult>): PromptSpend {
  const limit = result.costLimitUsd !== undefined ? { costLimitUsd: result.costLimitUsd } : {};
  return { promptId, spentUsd: resultSpentUsd(result), ...limit };
}

const spendSchema = z.strictObject({
  promptId: z.string().min(1),
  spentUsd: z.number().nonnegative().finite(),
  costLimitUsd: z.number().nonnegative().finite().optional(),
});

/** A `promptSpent` payload, or why it is not one (it is then ignored: it may have been typed by hand). */
export function parsePromptSpend(payload: unknown): { ok: true; spend: PromptSpend } | { ok: false; reason: string } {
  const parsed = spendSchema.safeParse(payload);
  if (parsed.success) return { ok: true, spend: parsed.data };
  const issue = parsed.error.issues[0];
  return { ok: false, reason: `promptSpent ignored: ${issue.path.join('.') || 'payload'} ${issue.message}` };
}

/** The session after a prompt: its spend added, and the limit raised by what the prompt was topped up with. */
export function afterPrompt(cost: SessionCost | undefined, given: number | undefined, spend: PromptSpend | undefined) {
  if (!cost || !spend) return cost;
  const end = spend.costLimitUsd;
  const raised = given !== undefined && end !== undefined ? end - given : 0;
  return { limitUsd: cost.limitUsd + Math.max(0, raised), spentUsd: cost.spentUsd + spend.spentUsd };
}

/** The carry of continue-as-new: only sessions with a limit carry one. */
export function costCarried(cost: SessionCost | undefined): Pick<SessionInput, 'costLimitUsd' | 'spentUsd'> {
  return cost ? { costLimitUsd: cost.limitUsd, spentUsd: cost.spentUsd } : {};
}

/** The running prompt's `promptSpent` report; one that is malformed or names another prompt is logged and ignored. */
export function reportedSpend(payload: unknown, current: string | undefined): PromptSpend | undefined {
  const parsed = parsePromptSpend(payload);
  if (parsed.ok && parsed.spend.promptId === current) return parsed.spend;
  log.warn(parsed.ok ? `promptSpent ignored: ${parsed.spend.promptId} is not the running prompt` : parsed.reason);
  return undefined;
}
