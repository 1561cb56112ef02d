import { afterPrompt, parsePromptSpend, spendOfResult } from './session-cost';

test.each([
  [undefined, /payload/],
  ['stop', /payload/],
  [{ spentUsd: 1 }, /promptId/],
  [{ promptId: 'p1', spentUsd: -1 }, /spentUsd/],
  [{ promptId: 'p1', spentUsd: 'a dollar' }, /spentUsd/],
  [{ promptId: 'p1', spentUsd: Infinity }, /spentUsd/],
  [{ promptId: 'p1', spentUsd: 1, costLimitUsd: -2 }, /costLimitUsd/],
  [{ promptId: 'p1', spentUsd: 1, extra: true }, /payload|extra/],
])('a promptSpent payload %j is refused with its reason', (payload, reason) => {
  const parsed = parsePromptSpend(payload);
  expect(parsed.ok).toBe(false);
  if (!parsed.ok) expect(parsed.reason).toMatch(/^promptSpent ignored: /);
  if (!parsed.ok) expect(parsed.reason).toMatch(reason);
});

test('a cancelled prompt’s report charges the session and passes its top-ups on, as a result does', () => {
  const cost = { limitUsd: 2, spentUsd: 0.5 };
  const reported = parsePromptSpend({ promptId: 'p2', spentUsd: 0.75, costLimitUsd: 2.5 });
  expect(reported.ok && afterPrompt(cost, 1.5, reported.spend)).toEqual({ limitUsd: 3, spentUsd: 1.25 });
  // No report (the prompt ended before it spent anything, or the session has no limit): nothing changes.
  expect(afterPrompt(cost, 1.5, undefined)).toBe(cost);
  expect(afterPrompt(undefined, undefined, spendOfResult('p3', {}))).toBeUndefined();
});
