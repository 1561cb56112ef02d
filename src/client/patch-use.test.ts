import { patchAdvice } from './patch-use';

const patch = { id: 'some-patch', since: '2026-11-24', guards: 'a branch that a test needs' };

test.each([
  [{ recorded: 2, missing: 1 }, 'keep; 1 open run(s) lack its marker'],
  [{ recorded: 3, missing: 0 }, 'may become deprecatePatch; every open run took its new branch'],
  [{ recorded: 0, missing: 0 }, 'can go; no open run needs it'],
])('a patch with %j open runs: %s', (counts, advice) => {
  expect(patchAdvice({ patch, ...counts })).toBe(`some-patch (since 2026-11-24): ${advice}`);
});

test('a retiring patch goes once no open run recorded it, whatever runs lack it', () => {
  const retiring = { ...patch, retiring: true as const };
  expect(patchAdvice({ patch: retiring, recorded: 2, missing: 5 })).toBe(
    'some-patch (since 2026-11-24): retiring; remove the deprecate call once the 2 open run(s) that recorded it end',
  );
  expect(patchAdvice({ patch: retiring, recorded: 0, missing: 5 })).toBe(
    'some-patch (since 2026-11-24): can go; no open run recorded it',
  );
});
