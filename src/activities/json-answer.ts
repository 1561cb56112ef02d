import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { GenerateContentParameters, GenerateContentResponse } from '@google/genai';
import { MODEL_ERROR_TYPES } from '../core/failures';
import { classifyModelError } from '../model/errors';
import type { JsonModelSeam } from '../model/seam';

/**
 * One model call asking for a JSON answer: adds the JSON response type and returns the answer's
 * JSON, or undefined if it holds none. API errors are thrown classified (`classifyModelError`).
 */
export async function requestJson(models: JsonModelSeam, request: GenerateContentParameters): Promise<unknown> {
  let response: GenerateContentResponse;
  try {
    response = await models.generateContent({
      ...request,
      config: { ...request.config, responseMimeType: 'application/json' },
    });
  } catch (err) {
    throw classifyModelError(err, request.model);
  }
  return parseJson(answerText(response));
}

/** Whether this activity attempt is not the last the retry policy (`maxAttempts`) allows. */
export function hasAttemptsLeft(maxAttempts: number): boolean {
  return Context.current().info.attempt < maxAttempts;
}

/** The retryable failure for an answer without JSON, so that Temporal asks again (as Gemini CLI does). */
export function noJsonFailure(who: string): ApplicationFailure {
  return ApplicationFailure.create({
    type: MODEL_ERROR_TYPES.invalidResponse,
    message: `${who} answered without JSON`,
  });
}

/** Thrown to make Temporal try a JSON call again; never escapes the last attempt. */
class RetryJsonCall extends Error {
  constructor(readonly failure: Error) {
    super(failure.message);
  }
}

/**
 * One JSON-answer utility call for the "never fails" activities (the next-speaker check, the
 * router): `requestJson` with the activity's cancellation signal. With attempts left
 * (`maxAttempts`), a retryable error or a JSON-less answer throws `RetryJsonCall` instead, which
 * `throwIfCancelledOrRetrying` lets out as a retryable failure.
 */
export async function generateJsonAnswer(
  models: JsonModelSeam,
  request: GenerateContentParameters,
  maxAttempts = 1,
): Promise<unknown> {
  const attemptsLeft = hasAttemptsLeft(maxAttempts);
  let json: unknown;
  try {
    json = await requestJson(models, {
      ...request,
      config: { ...request.config, abortSignal: Context.current().cancellationSignal },
    });
  } catch (failure) {
    if (attemptsLeft && failure instanceof ApplicationFailure && !failure.nonRetryable)
      throw new RetryJsonCall(failure);
    throw failure;
  }
  if (json === undefined && attemptsLeft) throw new RetryJsonCall(noJsonFailure(request.model));
  return json;
}

/** Lets cancellation and a requested retry out of a "never fails" activity; swallows the rest. */
export function throwIfCancelledOrRetrying(err: unknown): void {
  const signal = Context.current().cancellationSignal;
  if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : err;
  if (err instanceof RetryJsonCall) throw err.failure;
}

/** The answer's text parts (thoughts left out); works for SDK responses and plain fakes alike. */
function answerText(response: GenerateContentResponse): string {
  const parts = response.candidates?.[0]?.content?.parts ?? [];
  return parts
    .filter((p) => !p.thought && typeof p.text === 'string')
    .map((p) => p.text)
    .join('')
    .trim();
}

/** JSON from the answer, unwrapping a ```json fence some models add; undefined if there is none. */
function parseJson(text: string): unknown {
  const unfenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/.exec(text)?.[1] ?? text;
  if (unfenced === '') return undefined;
  try {
    return JSON.parse(unfenced) as unknown;
  } catch {
    return undefined;
  }
}
