import { z } from 'zod';
import { usdSchema } from './spend-limit';

/**
 * The payloads of the prompt's steering, budget and loop signals, checked in the workflow: a bad payload
 * is refused with a warning event and changes nothing (the signal itself cannot answer its sender).
 */

/** `steer`: `{"text": "..."}`, delivered with the next model request. */
export const steerSchema = z.object({ text: z.string().trim().min(1, 'text must not be empty') });

/**
 * `topUpBudget`: `{"tokens": N}` raises a paused prompt's token budget by N, `{"usd": N}` its spending limit by N
 * US dollars; `"stop"` (or `{"stop": true}`) ends it.
 */
export const topUpSchema = z.union([
  z.literal('stop'),
  z.object({ stop: z.literal(true) }),
  z.object({ tokens: z.number().int().positive('tokens must be a positive whole number') }),
  z.object({ usd: usdSchema }),
]);

/** `loopDecision`: `{"action": "continue" | "disable" | "stop"}` or the bare string. */
export const loopDecisionSchema = z.union([
  z.enum(['continue', 'disable', 'stop']),
  z.object({ action: z.enum(['continue', 'disable', 'stop']) }),
]);

export type LoopDecision = 'continue' | 'disable' | 'stop';

/** `childApproval`: a sub-agent's call awaiting approval (`pending: true`) or no longer, sent by the child itself. */
export const childApprovalSchema = z.object({
  childWorkflowId: z.string().min(1),
  callId: z.string().min(1),
  name: z.string(),
  args: z.unknown(),
  pending: z.boolean(),
});

const amount = z.number().nonnegative().finite();

/**
 * `childCostPause`: a sub-agent tells the prompt that started it that it paused before a request that could cross its
 * limit (`paused: true`, where it stands, and the request) or that it goes on again (`paused: false`).
 */
export const childCostPauseSchema = z.discriminatedUnion('paused', [
  z.object({
    childWorkflowId: z.string().min(1),
    paused: z.literal(true),
    spentUsd: amount,
    limitUsd: amount,
    nextRequestUsd: amount,
    model: z.string(),
    request: z.string(),
  }),
  z.object({ childWorkflowId: z.string().min(1), paused: z.literal(false) }),
]);

export type ChildCostPause = z.infer<typeof childCostPauseSchema>;

export type TopUp = z.infer<typeof topUpSchema>;
