/**
 * The model catalogue: every model name this agent sends, the model of each role, context windows and
 * what each family needs. The facts are Gemini CLI 0.61.0's as it runs with an API key (its "3.1 launched", "latest
 * flash" and "latest flash-lite" switches all on). Settings can replace the default, the side-call
 * models and the retired-name table (see docs/models.md), so a retirement is a settings change.
 */

import { flatPrice, tieredPrice, type PriceTable } from './prices';

/** `-m auto`: a classifier picks the fast or the strong model once per prompt. Gemini CLI's default. */
export const AUTO_MODEL = 'auto';
export const DEFAULT_MODEL = AUTO_MODEL;
/** `auto` over the older family. */
export const AUTO_GEMINI_2_5 = 'auto-gemini-2.5';

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
  [AUTO_GEMINI_2_5]: { fast: GEMINI_2_5.fast, strong: GEMINI_2_5.strong },
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

/** Prompt tokens above which the pro models bill a request at their long-prompt rates. */
const LONG_PROMPT_TOKENS = 200_000;

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

/** Whether `model` is a Gemma model (served by the Gemini API, with a smaller window and no nested media). */
function isGemma(model: string): boolean {
  return /^(models\/)?gemma/.test(model);
}

/** Context window of every Gemini model (`tokenLimit`). */
export const DEFAULT_TOKEN_LIMIT = 1_048_576;
/** Context window of Gemma 4 models. */
export const GEMMA_4_TOKEN_LIMIT = 256_000;

/** The model's context window in tokens: 256,000 for Gemma 4, 1,048,576 for everything else. */
export function tokenLimit(model: string): number {
  return /^(models\/)?gemma-4/i.test(model) ? GEMMA_4_TOKEN_LIMIT : DEFAULT_TOKEN_LIMIT;
}

/** Gemini 2 and later check thought signatures in the active loop; 1.x models had none. */
export function needsThoughtSignatures(model: string): boolean {
  return !/^(models\/)?gemini-1\./.test(model);
}

/**
 * Gemini 3 models take images and PDFs nested in the function response (`functionResponse.parts`);
 * older ones, and Gemma, get them as parts beside it.
 */
export function nestsMediaInResponse(model: string): boolean {
  return familyOf(model) === 'gemini-3' && !isGemma(model);
}

/** `auto` between Gemini 3 models asks the classifier for a complexity score; older pairs for flash or pro. */
export function routesByComplexityScore(strongModel: string): boolean {
  return familyOf(strongModel) === 'gemini-3';
}

/** A sub-agent runs on the model its definition names; without one (or `inherit`), on the prompt's. */
export function subAgentModel(defined: string | undefined, promptModel: string): string {
  return defined ?? promptModel;
}

/**
 * USD per million tokens (input, cached input, output; thinking billed as output), Gemini API paid tier, standard
 * (not batch) requests, text input. Source: the Gemini API pricing page (ai.google.dev/gemini-api/docs/pricing) as
 * quoted by dated copies read on 2026-11-28; docs/models.md lists them. `gemini-3.8-flash` is at its launch price,
 * which Google says ends on 2027-01-01 (then 1.50 / 0.15 / 7.50): settings' `model.prices` replaces any entry.
 * Gemma models have no entry: their cost is reported as unknown.
 */
export const MODEL_PRICES: PriceTable = {
  [GEMINI_3.strong]: tieredPrice([2, 0.2, 12], [4, 0.4, 18], LONG_PROMPT_TOKENS),
  'gemini-3-pro-preview': tieredPrice([2, 0.2, 12], [4, 0.4, 18], LONG_PROMPT_TOKENS),
  [GEMINI_3.fast]: flatPrice(0.75, 0.075, 3.75),
  [GEMINI_3.lite]: flatPrice(0.3, 0.03, 2.5),
  [GEMINI_3.utility]: flatPrice(0.5, 0.05, 3),
  'gemini-3.1-flash-lite': flatPrice(0.25, 0.025, 1.5),
  [GEMINI_2_5.strong]: tieredPrice([1.25, 0.125, 10], [2.5, 0.25, 15], LONG_PROMPT_TOKENS),
  [GEMINI_2_5.fast]: flatPrice(0.3, 0.03, 2.5),
  [GEMINI_2_5.lite]: flatPrice(0.1, 0.01, 0.4),
};

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

/** The catalogue's model for the role `model` played (pro, flash, flash-lite), for a model that answered 404. */
export function suggestedModel(model: string, overrides: ModelOverrides = {}): string {
  const replacement = replacementOf(model, overrides);
  if (replacement) return replacement;
  if (model.includes('flash-lite')) return GEMINI_3.lite;
  if (model.includes('flash')) return GEMINI_3.fast;
  return model.includes('pro') ? GEMINI_3.strong : DEFAULT_MODEL;
}
