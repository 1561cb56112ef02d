import { defineSignal } from '@temporalio/workflow';

/**
 * The signals that carry a spending limit between workflows: a sub-agent's pause to the prompt that started it, a
 * cancelled prompt's spend to its session. Payloads are checked where they arrive (a person could type one).
 */

/** A sub-agent paused on its spending limit, or going on again (core/signal-schemas: childCostPauseSchema). */
export const childCostPauseSignal = defineSignal<[unknown]>('childCostPause');

/** A session's prompt, cancelled on its own, tells its session what it spent (it returns no result to carry it). */
export const promptSpentSignal = defineSignal<[unknown]>('promptSpent');
