import type { TokenUsage } from '../types';

/**
 * What a model costs, in US dollars per million tokens, as the Gemini API bills it. `input` prices the prompt
 * tokens not served from the cache, `cachedInput` those that were (`cachedContentTokenCount`, which the API counts
 * inside `promptTokenCount`), `output` the answer's tokens and `thinking` its thought tokens: Gemini bills thinking
 * as output, so the catalogue's `thinking` always equals `output`; a settings override may say otherwise.
 */
export interface TokenRates {
  input: number;
  cachedInput: number;
  output: number;
  thinking: number;
}

/**
 * A model's rates, and the higher ones of a request whose prompt is longer than `longPrompt.above` tokens (the
 * Gemini price list's "prompts > 200k tokens" tier): the whole request is billed at them, not only the excess.
 */
export interface ModelPrice extends TokenRates {
  longPrompt?: TokenRates & { above: number };
}

export type PriceTable = Readonly<Record<string, ModelPrice>>;

/** The catalogue's rates with settings' `model.prices` over them, entry by entry. */
export function withPriceOverrides(table: PriceTable, overrides: PriceTable | undefined): PriceTable {
  return overrides ? { ...table, ...overrides } : table;
}

/** The price of `model` in `table` (a `models/` prefix ignored), or undefined when it has none. */
export function priceOf(model: string, table: PriceTable): ModelPrice | undefined {
  return table[model] ?? table[model.replace(/^models\//, '')];
}

/**
 * The cost in USD of one model request's usage as the provider reported it, or undefined when `model` has no price
 * (its cost is unknown: never counted as 0). The long-prompt tier is chosen by the request's own prompt tokens, so
 * this prices one request: a sum of several requests' usage may cross a tier none of them crossed.
 */
export function costOf(model: string, usage: TokenUsage, table: PriceTable): number | undefined {
  const price = priceOf(model, table);
  if (!price) return undefined;
  const rates = price.longPrompt && usage.input > price.longPrompt.above ? price.longPrompt : price;
  const cached = Math.min(usage.cached, usage.input);
  const micro =
    (usage.input - cached) * rates.input +
    cached * rates.cachedInput +
    usage.output * rates.output +
    usage.thoughts * rates.thinking;
  return micro / 1_000_000;
}

/** Flat rates: thinking billed as output. */
export function flatPrice(input: number, cachedInput: number, output: number): ModelPrice {
  return { input, cachedInput, output, thinking: output };
}

/** Rates with a long-prompt tier above `above` prompt tokens. */
export function tieredPrice(short: [number, number, number], long: [number, number, number], above: number) {
  return { ...flatPrice(...short), longPrompt: { ...flatPrice(...long), above } };
}
