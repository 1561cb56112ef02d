import type { GenerateContentConfig, ThinkingLevel } from '@google/genai';
import { familyOf, GEMINI_3 } from './catalogue';

/**
 * The generation config that goes with each model: Gemini CLI 0.61.0's for a conversation turn, a
 * side call and a compression summary. Part of the catalogue (./index exports both).
 */

/** Gemini 2.5's thinking budget in a chat request (Gemini CLI's default thinking mode). */
export const GEMINI_2_5_THINKING_BUDGET = 8192;

/** Sampling of a conversation turn, the same for every family. */
const CHAT_SAMPLING = { temperature: 1, topP: 0.95, topK: 64 };

/**
 * The generation config of a conversation request to `model`: Gemini CLI's chat config, with thought
 * summaries asked for (without `includeThoughts` the API never returns them); 3.x thinks at level
 * HIGH, 2.5 within a budget.
 */
export function chatConfig(model: string): GenerateContentConfig {
  const family = familyOf(model);
  if (family === 'gemini-3') {
    return { ...CHAT_SAMPLING, thinkingConfig: { includeThoughts: true, thinkingLevel: 'HIGH' as ThinkingLevel } };
  }
  if (family === 'gemini-2.5') {
    return { ...CHAT_SAMPLING, thinkingConfig: { includeThoughts: true, thinkingBudget: GEMINI_2_5_THINKING_BUDGET } };
  }
  return { ...CHAT_SAMPLING, thinkingConfig: { includeThoughts: true } };
}

/** Deterministic judging calls (loop check, edit fixer, next speaker, web tools): Gemini CLI's base config. */
export const UTILITY_CONFIG: Readonly<GenerateContentConfig> = { temperature: 0, topP: 1 };

/**
 * The config of a side call to `model`. Gemini CLI sends the calls it pins to its utility flash model with
 * the base config; a call whose model it resolved from an alias (the classifier's flash-lite, the loop
 * check's confirming pro) goes out with that model's chat config. Ours do the same, to send the same requests.
 */
export function sideCallConfig(model: string): GenerateContentConfig {
  return model === GEMINI_3.utility ? { ...UTILITY_CONFIG } : chatConfig(model);
}

/** A compression request's config: none, as Gemini CLI's summary aliases carry none; pro gets its chat config. */
export function compressionConfig(model: string): GenerateContentConfig {
  return model === GEMINI_3.strong ? chatConfig(model) : {};
}

/**
 * The most a Gemini model answers in one response, thinking included: 65,536 tokens for the 2.5 and 3 models. Our
 * requests set no `maxOutputTokens`, so this is what one request could be billed for at most.
 */
export const OUTPUT_TOKEN_LIMIT = 65_536;
