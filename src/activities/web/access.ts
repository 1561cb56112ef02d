import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { GenerateContentResponse } from '@google/genai';
import { SIDE_CALL_MODELS, sideCallConfig } from '../../core/models';
import { classifyModelError } from '../../model/errors';
import type { JsonModelSeam } from '../../model/seam';
import { ToolError, type WebAccess, type WebAnswer } from '../../tools/types';
import type { Grounding } from '../../tools/web-text';
import { fetchPageText } from './fetch-page';
import { isPrivateHost, takeRateSlot } from './url-hosts';

/** The tools activity's `maximumAttempts` (state/activity-options.ts): the last attempt answers the model. */
const TOOL_MAX_ATTEMPTS = 5;

/** The web as `web_fetch` and `google_web_search` see it, for one tool call. */
export function createWebAccess(models: JsonModelSeam, signal: AbortSignal, allowPrivate: boolean): WebAccess {
  return {
    ask: (request) => ask(models, signal, request),
    fetchText: (url) => fetchPageText(url, signal, allowPrivate),
    isBlocked: async (url) => !allowPrivate && (await isPrivateHost(url)),
    takeRateSlot,
  };
}

async function ask(
  models: JsonModelSeam,
  signal: AbortSignal,
  request: Parameters<WebAccess['ask']>[0],
): Promise<WebAnswer> {
  const timeout = request.timeoutMs ? [AbortSignal.timeout(request.timeoutMs)] : [];
  let response: GenerateContentResponse;
  try {
    response = await models.generateContent({
      model: SIDE_CALL_MODELS.web,
      contents: [{ role: 'user', parts: [{ text: request.text }] }],
      config: {
        ...sideCallConfig(SIDE_CALL_MODELS.web),
        abortSignal: AbortSignal.any([signal, ...timeout]),
        ...(request.grounding ? { tools: [{ [request.grounding]: {} }] } : {}),
      },
    });
  } catch (err) {
    throw modelFailure(err, signal);
  }
  const candidate = response.candidates?.[0];
  const text = (candidate?.content?.parts ?? [])
    .filter((p) => typeof p.text === 'string' && !p.thought)
    .map((p) => p.text)
    .join('');
  return { text, grounding: candidate?.groundingMetadata as Grounding | undefined };
}

/** Temporal retries what may pass (invariant 3); a final failure is a result the model reads. */
function modelFailure(err: unknown, signal: AbortSignal): Error {
  if (signal.aborted) return new ToolError('cancelled', 'The web request was cancelled.');
  const failure = classifyModelError(err, SIDE_CALL_MODELS.web);
  const retryable = failure instanceof ApplicationFailure && !failure.nonRetryable;
  if (retryable && Context.current().info.attempt < TOOL_MAX_ATTEMPTS) return failure;
  return new ToolError('execution_failed', failure.message);
}
