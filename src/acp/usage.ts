/**
 * ACP's `usage_update` after each model turn: `used` is the turn's prompt tokens (what the context
 * holds now), `size` the model's input limit from the catalogue, `cost` what the session's model
 * turns cost so far, in USD, at the catalogue's prices. The cost is known only when every turn of
 * the session was seen (a session resumed without replay starts unknown) and every model priced.
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { AgentEvent } from '../core/events';
import { costOf, MODEL_PRICES, tokenLimit } from '../core/models';

/** What the usage of a session adds up to across the prompts followed; `costUsd` undefined: not known. */
export interface UsageTally {
  model?: string;
  costUsd?: number;
}

/** A tally from the session's start (`known`) or from the middle of it (its cost so far unknown). */
export function newUsageTally(known: boolean, model?: string): UsageTally {
  return { model, ...(known && { costUsd: 0 }) };
}

/** The `usage_update` an event makes (a model turn's end), noting the model each turn names. */
export function usageUpdates(tally: UsageTally, event: AgentEvent): SessionUpdate[] {
  if (event.type === 'model_info') tally.model = event.model;
  if (event.type !== 'finished') return [];
  const model = tally.model;
  const turnCost = model ? costOf(model, event.usage, MODEL_PRICES) : undefined;
  tally.costUsd = tally.costUsd !== undefined && turnCost !== undefined ? tally.costUsd + turnCost : undefined;
  return [
    {
      sessionUpdate: 'usage_update',
      used: event.usage.input,
      size: tokenLimit(model ?? ''),
      ...(tally.costUsd !== undefined && { cost: { amount: tally.costUsd, currency: 'USD' } }),
    },
  ];
}
