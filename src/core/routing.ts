import type { Content } from '@google/genai';
import { MODEL_ERROR_TYPES } from './failures';
import { isFunctionResponse } from './next-speaker';

/** Whether a model activity's failure type is a quota error (HTTP 429), the trigger for a fallback. */
export function isQuotaFailure(failureType: string | undefined | null): boolean {
  return failureType === MODEL_ERROR_TYPES.rateLimit;
}

/** Gemini CLI's classifier context: the last 20 messages, tool turns removed, then the last 4. */
export const CLASSIFIER_SEARCH_WINDOW = 20;
export const CLASSIFIER_HISTORY_TURNS = 4;

/** The history messages the classifier sees, per `CLASSIFIER_SEARCH_WINDOW` / `_HISTORY_TURNS`. */
export function classifierHistory(history: Content[]): Content[] {
  return history
    .slice(-CLASSIFIER_SEARCH_WINDOW)
    .filter((c) => !isFunctionCallTurn(c) && !isFunctionResponse(c))
    .slice(-CLASSIFIER_HISTORY_TURNS);
}

/** A model turn whose parts are all function calls. */
function isFunctionCallTurn(content: Content): boolean {
  return (
    content.role === 'model' && content.parts !== undefined && content.parts.every((p) => p.functionCall !== undefined)
  );
}
