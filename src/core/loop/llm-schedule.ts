import type { LlmCheckSchedule, LoopDetection, LoopState } from './types';

export type { LlmCheckSchedule } from './types';

/**
 * Level 3 of loop detection, the LLM check, as Gemini CLI schedules and judges it (its
 * LoopDetectionService `turnStarted`). Pure: the model calls are the `checkForLoop` activity, passed
 * in as `ask`, so the workflow decides everything and replays deterministically.
 *
 * Model calls, per model request of a prompt (count them with `beforeModelRequest`):
 * - request < 30, or fewer than `interval` requests since the last check: none.
 * - check due: one call to the fast model. Then
 *   - no usable answer (the activity failed, or answered with no usable JSON): no loop, the
 *     interval is unchanged. 1 call.
 *   - confidence < 0.9: no loop, interval = round(5 + 10 × (1 − confidence)). 1 call.
 *   - confidence ≥ 0.9 and no confirming model configured: loop (the fast analysis). 1 call.
 *   - confidence ≥ 0.9: one call to the stronger model. 2 calls. Its confidence ≥ 0.9: loop (its
 *     analysis); below: no loop, interval from its confidence; no usable answer: no loop, interval
 *     unchanged.
 * "Call" means activity: with Gemini CLI's `maxAttempts: 2`, an attempt that fails retryably, or
 * answers with no JSON at all, is followed by one more (Temporal's retry; see `checkForLoop`).
 * A loop found before request n means request n is not sent: the recovery request (or the end of the
 * prompt) takes its place, and that recovery request counts as request n + 1.
 */

export const LLM_CHECK_AFTER_TURNS = 30;
export const DEFAULT_LLM_CHECK_INTERVAL = 10;
export const MIN_LLM_CHECK_INTERVAL = 5;
export const MAX_LLM_CHECK_INTERVAL = 15;
export const LLM_CONFIDENCE_THRESHOLD = 0.9;
export const LLM_LOOP_CHECK_HISTORY_COUNT = 20;
/** Attempts per check call (Gemini CLI's `maxAttempts: 2`): the loop-check retry policy's `maximumAttempts`. */
export const LLM_LOOP_CHECK_MAX_ATTEMPTS = 2;

/** One model's verdict: the `checkForLoop` activity's result. */
export interface LoopCheckResult {
  /** `answered` and `confidence >= LLM_CONFIDENCE_THRESHOLD`. */
  isLoop: boolean;
  /** In [0, 1]; 0 when not answered. */
  confidence: number;
  analysis: string;
  model: string;
  /** False when the model gave no usable answer: Gemini CLI then leaves the interval alone. */
  answered: boolean;
}

/** Asks one model; resolve `undefined` when the activity failed (Gemini CLI: "no result", no loop). */
export type AskLoopModel = (model: string) => Promise<LoopCheckResult | undefined>;

export interface LoopCheckModels {
  fast: string;
  /** The stronger model that must confirm; without it a confident fast answer is enough. */
  confirm?: string;
}

export function createLlmCheckSchedule(): LlmCheckSchedule {
  return { requests: 0, lastCheckAt: 0, interval: DEFAULT_LLM_CHECK_INTERVAL };
}

/** Confident answers bring the next check closer: 5 requests at confidence 1, 15 at 0. */
export function checkIntervalFor(confidence: number): number {
  const c = Math.min(1, Math.max(0, confidence));
  return Math.round(MIN_LLM_CHECK_INTERVAL + (MAX_LLM_CHECK_INTERVAL - MIN_LLM_CHECK_INTERVAL) * (1 - c));
}

/** Counts one model request and says whether the LLM check runs before it (and marks it run). */
export function countModelRequest(schedule: LlmCheckSchedule): { schedule: LlmCheckSchedule; checkDue: boolean } {
  const requests = schedule.requests + 1;
  const checkDue = requests >= LLM_CHECK_AFTER_TURNS && requests - schedule.lastCheckAt >= schedule.interval;
  return { schedule: { ...schedule, requests, lastCheckAt: checkDue ? requests : schedule.lastCheckAt }, checkDue };
}

/** Call before every model request of the prompt; with detection off nothing is counted. */
export function beforeModelRequest(state: LoopState): { state: LoopState; checkDue: boolean } {
  if (state.disabled) return { state, checkDue: false };
  const { schedule, checkDue } = countModelRequest(state.llm);
  return { state: { ...state, llm: schedule }, checkDue };
}

export type FastVerdict =
  | { next: 'confirm'; model: string }
  | { next: 'done'; schedule: LlmCheckSchedule; detection?: LoopDetection };

/** Judges the fast model's answer: done (loop or not, interval adapted) or ask `confirmModel`. */
export function judgeFastAnswer(
  schedule: LlmCheckSchedule,
  answer: LoopCheckResult | undefined,
  confirmModel: string | undefined,
): FastVerdict {
  if (!answer?.answered) return { next: 'done', schedule };
  if (answer.confidence < LLM_CONFIDENCE_THRESHOLD)
    return { next: 'done', schedule: { ...schedule, interval: checkIntervalFor(answer.confidence) } };
  if (confirmModel !== undefined) return { next: 'confirm', model: confirmModel };
  return { next: 'done', schedule, detection: llmDetection(answer) };
}

/** Judges the stronger model's answer to a confident fast answer. */
export function judgeConfirmAnswer(
  schedule: LlmCheckSchedule,
  answer: LoopCheckResult | undefined,
): { schedule: LlmCheckSchedule; detection?: LoopDetection } {
  if (!answer?.answered) return { schedule };
  if (answer.confidence >= LLM_CONFIDENCE_THRESHOLD) return { schedule, detection: llmDetection(answer) };
  return { schedule: { ...schedule, interval: checkIntervalFor(answer.confidence) } };
}

/** The whole check, once `beforeModelRequest` said it is due: one or two calls of `ask`. */
export async function runLlmLoopCheck(
  state: LoopState,
  models: LoopCheckModels,
  ask: AskLoopModel,
): Promise<{ state: LoopState; detection?: LoopDetection }> {
  const fast = judgeFastAnswer(state.llm, await ask(models.fast), models.confirm);
  if (fast.next === 'done') return { state: { ...state, llm: fast.schedule }, detection: fast.detection };
  const confirmed = judgeConfirmAnswer(state.llm, await ask(fast.model));
  return { state: { ...state, llm: confirmed.schedule }, detection: confirmed.detection };
}

/** The detail is the model's analysis; an empty one gets the default in `loopRecoveryMessage`. */
function llmDetection(answer: LoopCheckResult): LoopDetection {
  return { kind: 'llm_loop', detail: answer.analysis.trim() };
}
