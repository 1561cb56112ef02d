import { markUnavailable, stillUnavailable, unavailableUntil } from './model-availability';

test('only entries still in force at the given time count, the latest per model', () => {
  const list = [
    { model: 'pro', until: 100 },
    { model: 'pro', until: 300 },
    { model: 'flash', until: 50 },
  ];
  expect(stillUnavailable(list, 60)).toEqual([{ model: 'pro', until: 300 }]);
  expect(unavailableUntil(list, 'pro', 60)).toBe(300);
  expect(unavailableUntil(list, 'pro', 300)).toBeUndefined();
  expect(unavailableUntil(list, 'flash', 60)).toBeUndefined();
});

test('malformed carried entries are dropped, not trusted', () => {
  expect(stillUnavailable('nope', 0)).toEqual([]);
  expect(
    stillUnavailable([null, { model: 'pro' }, { model: '', until: 9 }, { model: 'x', until: 'later' }], 0),
  ).toEqual([]);
});

test('marking replaces the model’s entry and drops expired ones', () => {
  const list = [
    { model: 'pro', until: 500 },
    { model: 'old', until: 10 },
  ];
  expect(markUnavailable(list, 'pro', 200, 20)).toEqual([{ model: 'pro', until: 200 }]);
});
