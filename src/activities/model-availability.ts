import { ApplicationFailure } from '@temporalio/common';
import { MODEL_ERROR_TYPES } from '../core/failures';
import {
  markUnavailable,
  QUOTA_RESET_UNKNOWN_MS,
  unavailableUntil,
  type ModelUnavailability,
} from '../core/model-availability';

/**
 * One worker's memory of models out of quota (Gemini CLI's availability service, per process). A model
 * call that meets a used-up quota (a 429 marked `usedUp`, see model/errors) marks its model until the
 * quota's reset; until then every model call to it on this worker, from any prompt, fails at once with a
 * non-retryable quota failure instead of sending a request, so the workflow goes straight to its
 * fallback. The 429 itself is retried as any 429 (invariant 3): that retry is the first call refused.
 */
export class ModelAvailability {
  private list: ModelUnavailability[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  /** Runs `call` unless `model` is known out of quota; a used-up quota it meets is remembered. */
  async guard<T>(model: string, call: () => Promise<T>): Promise<T> {
    const until = unavailableUntil(this.list, model, this.now());
    if (until !== undefined) throw knownUnavailable(model, until, this.now());
    try {
      return await call();
    } catch (err) {
      const resetMs = usedUpQuota(err);
      if (resetMs !== undefined) this.list = markUnavailable(this.list, model, this.now() + resetMs, this.now());
      throw err;
    }
  }
}

/** The wait of a used-up quota (its reset, or the default), or undefined for any other error. */
function usedUpQuota(err: unknown): number | undefined {
  if (!(err instanceof ApplicationFailure) || err.type !== MODEL_ERROR_TYPES.rateLimit) return undefined;
  const details = err.details?.[0] as { quotaResetMs?: unknown; usedUp?: unknown } | undefined;
  if (details?.usedUp !== true) return undefined;
  return typeof details.quotaResetMs === 'number' ? details.quotaResetMs : QUOTA_RESET_UNKNOWN_MS;
}

function knownUnavailable(model: string, until: number, now: number): ApplicationFailure {
  return ApplicationFailure.create({
    type: MODEL_ERROR_TYPES.rateLimit,
    message:
      `${model} is out of quota on this worker until ${new Date(until).toISOString()} ` +
      '(a model call met its used-up quota); the request was not sent',
    nonRetryable: true,
    details: [{ quotaResetMs: until - now, knownUnavailable: true }],
  });
}
