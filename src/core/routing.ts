import type { Content } from '@google/genai';
import { MODEL_ERROR_TYPES } from './failures';
import { isFunctionResponse } from './next-speaker';

/** `-m auto`: a classifier picks the fast or the strong model once per prompt. */
export const AUTO_MODEL = 'auto';

/** Gemini CLI's default (non-preview) models. */
export const DEFAULT_STRONG_MODEL = 'gemini-2.5-pro';
export const DEFAULT_FAST_MODEL = 'gemini-2.5-flash';
/** The classifier's model (Gemini CLI's `classifier` alias: flash-lite). */
export const DEFAULT_CLASSIFIER_MODEL = 'gemini-2.5-flash-lite';

export interface RoutingModels {
  fast: string;
  strong: string;
}

/**
 * The auto aliases Gemini CLI accepts and the pair each routes between. Any other name is an
 * explicit model: no classifier call.
 */
const AUTO_ALIASES: Record<string, RoutingModels> = {
  [AUTO_MODEL]: { fast: DEFAULT_FAST_MODEL, strong: DEFAULT_STRONG_MODEL },
  'auto-gemini-2.5': { fast: DEFAULT_FAST_MODEL, strong: DEFAULT_STRONG_MODEL },
  'auto-gemini-3': { fast: 'gemini-3-flash-preview', strong: 'gemini-3-pro-preview' },
};

/** The pair to route between when `requested` is an auto alias; undefined for an explicit model. */
export function autoRoutingModels(requested: string): RoutingModels | undefined {
  return AUTO_ALIASES[requested];
}

/**
 * Gemini CLI's model chains for persistent quota errors: a pro model falls back to the flash model
 * of its family; a flash model is the last resort and has no fallback, so a prompt falls back at
 * most once.
 */
const FALLBACKS: Record<string, string> = {
  [DEFAULT_STRONG_MODEL]: DEFAULT_FAST_MODEL,
  'gemini-3-pro-preview': 'gemini-3-flash-preview',
  'gemini-3.1-pro-preview': 'gemini-3-flash-preview',
};

/** The model to switch to after quota errors outlast the retries, if `model` has one. */
export function fallbackModelFor(model: string, pair?: RoutingModels): string | undefined {
  if (pair && model === pair.strong && pair.fast !== pair.strong) return pair.fast;
  return FALLBACKS[model];
}

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
