import type { GenerateContentConfig, ThinkingLevel } from '@google/genai';

/**
 * The model catalogue: every model name this agent sends, and the generation config that goes with
 * it. The facts are Gemini CLI 0.61.0's as it runs with an API key (its "3.1 launched", "latest
 * flash" and "latest flash-lite" switches all on). Settings can replace the default, the side-call
 * models and the retired-name table (see docs/models.md), so a retirement is a settings change.
 */

/** `-m auto`: a classifier picks the fast or the strong model once per prompt. Gemini CLI's default. */
export const AUTO_MODEL = 'auto';
export const DEFAULT_MODEL = AUTO_MODEL;

/** The models of the current (Gemini 3) family, by role. */
export const GEMINI_3 = {
  strong: 'gemini-3.1-pro-preview',
  fast: 'gemini-3.8-flash',
  lite: 'gemini-3.5-flash-lite',
  /** The fixed flash model of Gemini CLI's utility calls (loop check, edit fixer, web tools, next speaker). */
  utility: 'gemini-3-flash-preview',
} as const;

/** The older family, still reachable with `-m auto-gemini-2.5` or an explicit name while Google serves it. */
export const GEMINI_2_5 = {
  strong: 'gemini-2.5-pro',
  fast: 'gemini-2.5-flash',
  lite: 'gemini-2.5-flash-lite',
} as const;

export interface RoutingModels {
  fast: string;
  strong: string;
}

/** The auto aliases and the pair each routes between. Any other name is an explicit model: no classifier call. */
const AUTO_ALIASES: Record<string, RoutingModels> = {
  [AUTO_MODEL]: { fast: GEMINI_3.fast, strong: GEMINI_3.strong },
  'auto-gemini-3': { fast: GEMINI_3.fast, strong: GEMINI_3.strong },
  'auto-gemini-2.5': { fast: GEMINI_2_5.fast, strong: GEMINI_2_5.strong },
};

/**
 * Names that no longer reach a model, or short aliases, and what Gemini CLI sends instead
 * (`modelConfigs.modelIdResolutions` in settings adds to or replaces these).
 */
export const RETIRED_MODELS: Readonly<Record<string, string>> = {
  'gemini-3-pro-preview': GEMINI_3.strong,
  pro: GEMINI_3.strong,
  flash: GEMINI_3.fast,
  'flash-lite': GEMINI_3.lite,
};

/** The models of the calls beside the main conversation. */
export interface SideCallModels {
  /** `auto`'s router: scores the prompt's complexity. */
  classifier: string;
  /** The LLM loop check, and the stronger model that must confirm a loop. */
  loopCheck: string;
  loopConfirm: string;
  nextSpeaker: string;
  /** The one call that repairs a `replace` whose old_string was not found. */
  editFixer: string;
  /** web_fetch's and google_web_search's grounded calls. */
  web: string;
}

export const SIDE_CALL_MODELS: Readonly<SideCallModels> = {
  classifier: GEMINI_3.lite,
  loopCheck: GEMINI_3.utility,
  loopConfirm: GEMINI_3.strong,
  nextSpeaker: GEMINI_3.utility,
  editFixer: GEMINI_3.utility,
  web: GEMINI_3.utility,
};

/**
 * The quota fallback chains (Gemini CLI's policy chains): a pro model falls back to the flash model of
 * its family; flash models are the last resort, so a prompt falls back at most once.
 */
const FALLBACKS: Record<string, string> = {
  [GEMINI_3.strong]: GEMINI_3.utility,
  [GEMINI_2_5.strong]: GEMINI_2_5.fast,
};

/** Settings that replace catalogue entries (all optional; each absent key keeps the catalogue's). */
export interface ModelOverrides {
  /** Extra or replaced retired-name resolutions: requested name → the model to send. */
  resolutions?: Record<string, string>;
}

/** The model actually sent for `requested`: a retired or short name becomes its replacement, anything else as given. */
export function resolveModel(requested: string, overrides: ModelOverrides = {}): string {
  return overrides.resolutions?.[requested] ?? RETIRED_MODELS[requested] ?? requested;
}

/** The replacement of a retired name, or undefined when `model` is not known as retired. */
export function replacementOf(model: string, overrides: ModelOverrides = {}): string | undefined {
  const next = resolveModel(model, overrides);
  return next === model ? undefined : next;
}

/** The pair to route between when `requested` is an auto alias; undefined for an explicit model. */
export function autoRoutingModels(requested: string): RoutingModels | undefined {
  return AUTO_ALIASES[requested];
}

/** The model to switch to after quota errors outlast the retries, if `model` has one. */
export function fallbackModelFor(model: string, pair?: RoutingModels): string | undefined {
  if (pair && model === pair.strong && pair.fast !== pair.strong) return pair.fast;
  return FALLBACKS[model];
}

export type ModelFamily = 'gemini-3' | 'gemini-2.5' | 'other';

/** A model's family, from its name: the generation config differs between them. */
export function familyOf(model: string): ModelFamily {
  const name = model.replace(/^models\//, '');
  if (/^gemini-2\.5-/.test(name)) return 'gemini-2.5';
  if (/^gemini-3/.test(name) || /^gemma-4/.test(name)) return 'gemini-3';
  return 'other';
}

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

/**
 * The model that writes a compression summary for a conversation held with `model` (Gemini CLI's
 * `chat-compression-*` choice): Gemini 3 flash models summarise on the utility flash, lite models on
 * 3.1 Flash Lite, pro on pro; a 2.5 model or a name the catalogue does not know summarises itself.
 */
export function compressionModelFor(model: string): string {
  if (model === GEMINI_3.strong || model === 'gemini-3-pro-preview') return GEMINI_3.strong;
  if (familyOf(model) !== 'gemini-3' || model.startsWith('gemma')) return model;
  if (model.includes('flash-lite')) return 'gemini-3.1-flash-lite';
  return model.includes('flash') ? GEMINI_3.utility : model;
}

/** A compression request's config: none, as Gemini CLI's summary aliases carry none; pro gets its chat config. */
export function compressionConfig(model: string): GenerateContentConfig {
  return model === GEMINI_3.strong ? chatConfig(model) : {};
}

/** The catalogue's model for the role `model` played (pro, flash, flash-lite), for a model that answered 404. */
export function suggestedModel(model: string, overrides: ModelOverrides = {}): string {
  const replacement = replacementOf(model, overrides);
  if (replacement) return replacement;
  if (model.includes('flash-lite')) return GEMINI_3.lite;
  if (model.includes('flash')) return GEMINI_3.fast;
  return model.includes('pro') ? GEMINI_3.strong : DEFAULT_MODEL;
}
