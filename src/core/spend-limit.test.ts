import { couldCross, formatUsd, parseUsd, usdSchema } from './spend-limit';

describe('parseUsd', () => {
  it.each([
    ['5', 5],
    ['$0.25', 0.25],
    [' 2 ', 2],
  ])('reads %j as %d US dollars', (text, usd) => {
    expect(parseUsd(text)).toEqual({ ok: true, usd });
  });

  it.each([
    ['-1', /more than 0/],
    ['0', /more than 0/],
    ['abc', /must be a number/],
    ['', /must be a number/],
    ['Infinity', /number|at most/],
    ['1e9', /at most/],
  ])('refuses %j with a reason', (text, reason) => {
    const parsed = parseUsd(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toMatch(reason);
  });
});

describe('usdSchema', () => {
  it('refuses a string, even one that reads as a number', () => {
    expect(usdSchema.safeParse('3').success).toBe(false);
  });
});

describe('couldCross', () => {
  it('lets a request through only when the most it could cost still fits', () => {
    expect(couldCross({ spentUsd: 0.5, limitUsd: 1, nextRequestUsd: 0.5 })).toBe(false);
    expect(couldCross({ spentUsd: 0.5, limitUsd: 1, nextRequestUsd: 0.51 })).toBe(true);
  });
});

describe('formatUsd', () => {
  it('shows cents, and two significant digits below a cent', () => {
    expect(formatUsd(1.234)).toBe('$1.23');
    expect(formatUsd(0.00123)).toBe('$0.0012');
    expect(formatUsd(0)).toBe('$0.00');
  });
});
