import type { StopReason } from '@agentclientprotocol/sdk';
import type { AgentEvent } from '../core/events';

/** The model's finish reasons that mean it declined to answer. */
const REFUSALS = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY']);

/**
 * How a prompt's events say it ended, as ACP's stop reason: the last ending seen wins, and a
 * prompt that simply answered (or failed, its error shown as text) ended its turn.
 */
export function stopReasonAfter(current: StopReason, event: AgentEvent): StopReason {
  switch (event.type) {
    case 'cancelled':
      return 'cancelled';
    case 'max_turns':
    case 'max_session_turns':
      return 'max_turn_requests';
    case 'budget_exhausted':
    case 'cost_limit_reached':
      // Paused, not cut off: the model did not reach its output limit, the prompt waits for a top-up.
      return 'end_turn';
    case 'finished':
      if (event.reason === 'MAX_TOKENS') return 'max_tokens';
      return event.reason && REFUSALS.has(event.reason) ? 'refusal' : current;
    default:
      return current;
  }
}

/** The prompt paused on its token budget or spending limit, waiting for a top-up or a stop. */
export function pausedForMoney(event: AgentEvent): boolean {
  return event.type === 'budget_exhausted' || event.type === 'cost_limit_reached';
}
