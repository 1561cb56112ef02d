import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { ApiError } from '@google/genai';
import { FAILURES, MODEL_ERROR_TYPES } from '../core/failures';
import { suggestedModel } from '../core/models';

const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNREFUSED',
  'EPROTO',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
  'ERR_STREAM_PREMATURE_CLOSE',
]);

/**
 * The one place provider errors are classified (invariant 3). Temporal owns retries, so this only
 * decides retryable or not: 408, 429, 499, 5xx and network errors retry with backoff; any other
 * 4xx fails at once with a message that says what to fix.
 */
export function classifyModelError(err: unknown, model?: string): Error {
  if (err instanceof CancelledFailure || err instanceof ApplicationFailure) return err;
  if (err instanceof ApiError && err.status === 404 && model) return modelNotFound(model, err.message);
  if (err instanceof ApiError) return classifyStatus(err.status, err.message);
  if (isRequestRejectedBySdk(err)) {
    const refused = `the model request was refused before sending: ${messageOf(err)}`;
    return fatal(MODEL_ERROR_TYPES.badRequest, `${refused}. ${FAILURES.modelBadRequest.hint}`);
  }
  if (isNetworkError(err, 0)) {
    return ApplicationFailure.create({
      type: MODEL_ERROR_TYPES.network,
      message: `network error talking to the model: ${messageOf(err)}`,
    });
  }
  return ApplicationFailure.create({
    type: MODEL_ERROR_TYPES.unknown,
    message: `model call failed: ${messageOf(err)}`,
  });
}

export function classifyStatus(status: number, message: string): ApplicationFailure {
  const detail = `model API answered ${status}: ${message}`;
  if (status === 429) return quotaFailure(detail, message);
  if (status === 408 || status === 499 || status >= 500) return retryable(MODEL_ERROR_TYPES.server, detail);
  if (status === 401 || status === 403) {
    return fatal(MODEL_ERROR_TYPES.auth, `${detail}. ${FAILURES.modelAuth.hint}`);
  }
  if (status === 404) return fatal(MODEL_ERROR_TYPES.notFound, `${detail}. ${FAILURES.modelNotFound.hint}`);
  if (status >= 400 && status < 500) return fatal(MODEL_ERROR_TYPES.badRequest, detail);
  return retryable(MODEL_ERROR_TYPES.unknown, detail);
}

/**
 * A 404 for a model: the model is gone (retired, or never served to this key). Not retried; the message names
 * the model, the catalogue's model for the same role, and the two ways to switch.
 */
export function modelNotFound(model: string, message: string): ApplicationFailure {
  const instead = suggestedModel(model);
  const use = instead === model ? 'choose another model' : `use ${instead} instead`;
  return fatal(
    MODEL_ERROR_TYPES.notFound,
    `model ${model} was not found (404: ${message}); it may have been retired. To ${use}: ` +
      `-m ${instead === model ? 'MODEL' : instead}, "model": {"name": ...} in settings.json, or ` +
      `"modelConfigs": {"modelIdResolutions": {"${model}": {"default": ...}}} to send another model wherever ` +
      `this one is used (docs/models.md).`,
  );
}

/**
 * A 429, retried as every 429 is (invariant 3), after the wait it asks for. Its details say what the
 * model availability memory needs: the reset time (`RetryInfo`, uncapped) as `quotaResetMs`, and
 * `usedUp` when no short wait brings the quota back (Gemini CLI's terminal quota errors: a daily
 * quota, `limit: 0`, `QUOTA_EXHAUSTED`, or a reset more than 300 s away).
 */
function quotaFailure(detail: string, message: string): ApplicationFailure {
  const resetMs = quotaResetMs(message);
  const usedUp = (resetMs !== undefined && resetMs > MAX_RETRY_DELAY_MS) || TERMINAL_QUOTA.test(message);
  const details = { ...(resetMs === undefined ? {} : { quotaResetMs: resetMs }), ...(usedUp ? { usedUp } : {}) };
  return ApplicationFailure.create({
    type: MODEL_ERROR_TYPES.rateLimit,
    message: usedUp ? `${detail} (the quota is used up)` : detail,
    nextRetryDelay: serverRetryDelay(message),
    details: Object.keys(details).length > 0 ? [details] : undefined,
  });
}

/** Gemini CLI's signs of a quota that no short wait brings back. */
const TERMINAL_QUOTA = /PerDay|Daily|limit: ?0\b|QUOTA_EXHAUSTED/i;
const MAX_RETRY_DELAY_MS = 300_000;

/** The reset time a quota error gives (`RetryInfo.retryDelay`, or "Please retry in Xs"), in ms. */
export function quotaResetMs(message: string): number | undefined {
  const match =
    /"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"/.exec(message) ?? /Please retry in (\d+(?:\.\d+)?)s/i.exec(message);
  const ms = match ? Math.ceil(Number(match[1]) * 1000) : 0;
  return ms > 0 ? ms : undefined;
}

/**
 * The wait a 429 asks for (`RetryInfo.retryDelay`, e.g. "27s"), honoured up to Gemini CLI's 300 s
 * cap; beyond it, or without one, Temporal's backoff applies.
 */
export function serverRetryDelay(message: string): number | undefined {
  const ms = quotaResetMs(message);
  return ms !== undefined && ms <= MAX_RETRY_DELAY_MS ? ms : undefined;
}

function retryable(type: string, message: string): ApplicationFailure {
  return ApplicationFailure.create({ type, message });
}

function fatal(type: string, message: string): ApplicationFailure {
  return ApplicationFailure.create({ type, message, nonRetryable: true });
}

function isNetworkError(err: unknown, depth: number): boolean {
  if (depth > 5 || typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown };
  if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || /^ERR_SSL_.*BAD_RECORD_MAC$/.test(e.code)))
    return true;
  if (
    typeof e.message === 'string' &&
    /fetch failed|terminated|incomplete json segment|socket hang up|other side closed/i.test(e.message)
  ) {
    return true;
  }
  return isNetworkError(e.cause, depth + 1);
}

/**
 * @google/genai checks some arguments itself and throws a plain Error before any request: sending
 * the same request again cannot succeed, so these fail at once like a 400.
 */
function isRequestRejectedBySdk(err: unknown): boolean {
  return err instanceof Error && /^(model is required|invalid model parameter)/i.test(err.message);
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
