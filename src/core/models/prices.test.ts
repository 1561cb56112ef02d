import { costOf, flatPrice, MODEL_PRICES, priceOf, tieredPrice, withPriceOverrides, GEMINI_3, GEMINI_2_5 } from '.';
import { EMPTY_USAGE, type TokenUsage } from '../types';

const usage = (u: Partial<TokenUsage>): TokenUsage => ({ ...EMPTY_USAGE, ...u });
const M = 1_000_000;

describe('costOf: one request priced by the table', () => {
  const table = { pro: tieredPrice([2, 0.2, 12], [4, 0.4, 18], 200_000), flash: flatPrice(0.5, 0.05, 3) };

  it('bills uncached input, cached input, output and thinking at their rates', () => {
    // 1M prompt tokens of which 400k cached, 100k answer, 50k thoughts on a flat model.
    const cost = costOf('flash', usage({ input: M, cached: 400_000, output: 100_000, thoughts: 50_000 }), table);
    expect(cost).toBeCloseTo(0.6 * 0.5 + 0.4 * 0.05 + 0.1 * 3 + 0.05 * 3, 10);
  });

  it('a prompt of exactly 200k tokens is the short tier; one token more bills the whole request at the long rates', () => {
    const at = costOf('pro', usage({ input: 200_000, output: 1000 }), table);
    expect(at).toBeCloseTo(0.2 * 2 + 0.001 * 12, 10);
    const above = costOf('pro', usage({ input: 200_001, cached: 100_000, output: 1000, thoughts: 1000 }), table);
    expect(above).toBeCloseTo((100_001 * 4 + 100_000 * 0.4 + 1000 * 18 + 1000 * 18) / M, 10);
  });

  it('a flat model has no tier, however long the prompt', () => {
    expect(costOf('flash', usage({ input: 900_000 }), table)).toBeCloseTo(0.45, 10);
  });

  it('a model with no price has an unknown cost, not 0', () => {
    expect(costOf('gemma-4-27b-it', usage({ input: 10, output: 10 }), table)).toBeUndefined();
  });

  it('a models/ prefix names the same model', () => {
    expect(priceOf('models/flash', table)).toBe(table.flash);
  });

  it('cached tokens beyond the prompt count are not billed twice', () => {
    expect(costOf('flash', usage({ input: 100, cached: 500 }), table)).toBeCloseTo((100 * 0.05) / M, 12);
  });
});

describe('the catalogue price table', () => {
  it('prices every model the catalogue sends, Gemma aside, with thinking billed as output', () => {
    const sent = [...Object.values(GEMINI_3), ...Object.values(GEMINI_2_5), 'gemini-3.1-flash-lite'];
    for (const model of sent) {
      const price = priceOf(model, MODEL_PRICES);
      expect(price).toBeDefined();
      expect(price!.thinking).toBe(price!.output);
      expect(price!.cachedInput).toBeLessThan(price!.input);
    }
  });

  it('gives the pro models the long-prompt tier above 200k prompt tokens', () => {
    expect(MODEL_PRICES[GEMINI_3.strong].longPrompt).toEqual({
      input: 4,
      cachedInput: 0.4,
      output: 18,
      thinking: 18,
      above: 200_000,
    });
    expect(MODEL_PRICES[GEMINI_2_5.strong].longPrompt?.above).toBe(200_000);
    expect(MODEL_PRICES[GEMINI_3.fast].longPrompt).toBeUndefined();
  });

  it('settings replace an entry and add new ones', () => {
    const table = withPriceOverrides(MODEL_PRICES, { [GEMINI_3.fast]: flatPrice(1, 1, 1), custom: flatPrice(2, 2, 2) });
    expect(costOf(GEMINI_3.fast, usage({ input: M }), table)).toBe(1);
    expect(costOf('custom', usage({ output: M }), table)).toBe(2);
    expect(costOf(GEMINI_3.strong, usage({ input: M }), table)).toBe(4);
  });
});
