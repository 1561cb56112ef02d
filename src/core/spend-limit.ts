import { z } from 'zod';
import type { MessageMedia } from './media';
import { costOf, type PriceTable } from './models';
import { EMPTY_USAGE } from './types';

/**
 * The spending limit (`--max-cost`), in US dollars: what a limit may be, and when a request may not be sent.
 * A request is sent only when what is spent plus the most that request could cost stays within the limit; the
 * most it could cost is its prompt's tokens at the input price plus the model's whole output limit at the output
 * price (see `requestBound`), so a limit holds even against an answer that runs to the end.
 */

/** Above this a limit is surely a typo: a million US dollars. */
const MAX_LIMIT_USD = 1_000_000;

/** A limit or a top-up in US dollars: a finite number above zero. */
export const usdSchema = z
  .number({ error: 'must be a number of US dollars' })
  .positive('must be more than 0 US dollars (leave the limit out for none)')
  .max(MAX_LIMIT_USD, `must be at most ${MAX_LIMIT_USD} US dollars`);

/** A value typed on a command line (`5`, `0.25`, `$2`): the amount, or the reason it is not one. */
export function parseUsd(text: string): { ok: true; usd: number } | { ok: false; reason: string } {
  const trimmed = text.trim().replace(/^\$/, '');
  const parsed = usdSchema.safeParse(trimmed === '' ? NaN : Number(trimmed));
  if (parsed.success) return { ok: true, usd: parsed.data };
  return { ok: false, reason: `${JSON.stringify(text)} ${parsed.error.issues[0].message}` };
}

/** Where a run stands against its limit before one request. */
export interface SpendCheck {
  spentUsd: number;
  limitUsd: number;
  /** The most the next request could cost. */
  nextRequestUsd: number;
}

/** Whether the request could take the spend past the limit, so it must not be sent. */
export function couldCross(check: SpendCheck): boolean {
  return check.spentUsd + check.nextRequestUsd > check.limitUsd;
}

/** The amount as people read it: dollars and cents, with more digits below a cent. */
export function formatUsd(usd: number): string {
  return usd >= 0.01 || usd === 0 ? `$${usd.toFixed(2)}` : `$${usd.toPrecision(2)}`;
}

/** A request, as the check sees it before it is sent. */
export interface RequestBound {
  model: string;
  /** Tokens of the whole request: the last known prompt size plus an estimate of what was added since. */
  promptTokens: number;
  /** The most the model may answer, thinking included (see `maxOutputTokens` in core/models). */
  maxOutputTokens: number;
}

/**
 * The most a request could cost: its prompt at the input rate (the long-prompt tier when it is long) and the whole
 * output limit at the output rate, which is the thinking rate too. Undefined when the model has no price.
 */
export function requestBoundUsd(bound: RequestBound, table: PriceTable): number | undefined {
  const usage = { ...EMPTY_USAGE, input: bound.promptTokens, output: bound.maxOutputTokens };
  return costOf(bound.model, { ...usage, total: usage.input + usage.output }, table);
}

/** What a prompt may spend: each reached pauses it for a top-up. */
export interface SpendInput {
  /** Token budget of the prompt (input + output). */
  maxTokens?: number;
  /** Spending limit in US dollars (`--max-cost`; in a session, what the session has left). */
  maxCostUsd?: number;
}

/** A prompt's limit as it goes on: `maxCostUsd` raised by top-ups (carried, and in the result for its session). */
export interface SpendCarry {
  costLimitUsd?: number;
}

/** A session's limit, shared by its prompts, and what they spent so far (carried across continue-as-new). */
export interface SessionSpendCarry {
  costLimitUsd?: number;
  spentUsd?: number;
}

/** Where a prompt or a session stands against its limit; `nextRequestUsd` while a prompt is paused on it. */
export interface CostStanding {
  limitUsd: number;
  spentUsd: number;
  nextRequestUsd?: number;
}

/** A prompt's status: set when it has a spending limit; `nextRequestUsd` while it is paused on it. */
export interface SpendStatus {
  costLimit?: CostStanding;
}

/** A session's status: its limit and what its finished prompts spent (absent without a limit). */
export interface SessionSpendStatus {
  cost?: CostStanding;
}

/**
 * A session's `sendMessage`: `maxCostUsd` sets its spending limit (never below what its prompts spent);
 * `model`, the model of the prompt that runs it (the session's own when absent, as in messages sent before it);
 * `media`, images that go with the text (absent in messages sent before it).
 */
export interface SessionMessage {
  text: string;
  steer?: boolean;
  maxCostUsd?: number;
  model?: string;
  media?: MessageMedia[];
}
