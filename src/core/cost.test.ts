import { addCosts, addRequestCost, costKnown, costOfModels, EMPTY_COST } from './cost';
import { flatPrice, tieredPrice } from './models';
import { EMPTY_USAGE } from './types';

const table = { a: flatPrice(1, 0.1, 10), pro: tieredPrice([1, 0.1, 10], [2, 0.2, 20], 200_000) };
const tokens = (input: number, output = 0) => ({ ...EMPTY_USAGE, input, output, total: input + output });

describe('the cost tally', () => {
  it('adds each request by model; an unpriced model is listed once and left out of the sum', () => {
    let cost = addRequestCost(EMPTY_COST, 'a', tokens(1_000_000), table);
    cost = addRequestCost(cost, 'b', tokens(5), table);
    cost = addRequestCost(cost, 'b', tokens(5), table);
    cost = addRequestCost(cost, 'a', tokens(0, 100_000), table);
    expect(cost).toEqual({ usd: 2, models: { a: 2 }, unpriced: ['b'] });
    expect(costKnown(cost)).toBe(false);
  });

  it('prices requests one by one: two 150k prompts stay in the short tier that their sum would cross', () => {
    const one = addRequestCost(EMPTY_COST, 'pro', tokens(150_000), table);
    const two = addRequestCost(one, 'pro', tokens(150_000), table);
    expect(two.usd).toBeCloseTo(0.3, 10);
  });

  it("adds a sub-agent's tally to its parent's", () => {
    const parent = { usd: 1, models: { a: 1 }, unpriced: ['x'] };
    const child = { usd: 0.5, models: { a: 0.25, pro: 0.25 }, unpriced: ['x', 'y'] };
    expect(addCosts(parent, child)).toEqual({ usd: 1.5, models: { a: 1.25, pro: 0.25 }, unpriced: ['x', 'y'] });
  });

  it('prices the per-model sums of a run carried from before costs were counted', () => {
    expect(costOfModels({ a: tokens(1_000_000), z: tokens(1) }, table)).toEqual({
      usd: 1,
      models: { a: 1 },
      unpriced: ['z'],
    });
  });
});
