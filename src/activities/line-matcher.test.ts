import { ToolError } from '../tools/types';
import { createLineMatcher } from './line-matcher';

const EVIL = `${'a'.repeat(40)}b`;

async function rejection(promise: Promise<unknown>): Promise<ToolError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ToolError);
  return error as ToolError;
}

describe('createLineMatcher', () => {
  it('returns the indices of matching lines, without excluded ones, CRs dropped, at most max', async () => {
    const matcher = createLineMatcher({ pattern: 'x$', exclude: 'skip', flags: 'i' }, 5000);
    try {
      expect(await matcher.match('ax\r\nskip x\nBX\nno\ncx', 10)).toEqual([0, 2, 4]);
      expect(await matcher.match('ax\nbx\ncx', 2)).toEqual([0, 1]);
    } finally {
      await matcher.close();
    }
  });

  it('stops a runaway match after the time limit, with a search_timeout error', async () => {
    const matcher = createLineMatcher({ pattern: '^(a+)+$', flags: '' }, 200);
    const error = await rejection(matcher.match(EVIL, 10));
    expect(error.kind).toBe('search_timeout');
    expect((await rejection(matcher.match('a', 10))).kind).toBe('search_timeout');
    await matcher.close();
  });

  it('stops a runaway match when the activity is cancelled', async () => {
    const abort = new AbortController();
    const matcher = createLineMatcher({ pattern: '^(a+)+$', flags: '' }, 60_000, abort.signal);
    const pending = matcher.match(EVIL, 10);
    setTimeout(() => abort.abort(), 50);
    expect((await rejection(pending)).kind).toBe('cancelled');
    await matcher.close();
  });
});
