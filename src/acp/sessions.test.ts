import { RequestError } from '@agentclientprotocol/sdk';
import type { ListedSession } from '../client';
import { pageOf, readCursor } from './sessions';

/** Sessions as the client lists them: most recently active first, then by id. */
function listed(n: number): ListedSession[] {
  return Array.from({ length: n }, (_, i) => ({
    sessionId: `s${String(i).padStart(2, '0')}`,
    workspace: '/ws',
    title: `title ${i}`,
    updatedAt: new Date(Date.UTC(2026, 10, 28, 5, 0, 59 - Math.floor(i / 2))).toISOString(),
    open: true,
  }));
}

test('pages follow each other by cursor, with no session twice or left out, and the last has no cursor', () => {
  const all = listed(7);
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 10; pages++) {
    const { page, nextCursor } = pageOf(all, cursor ? readCursor(cursor) : undefined, 3);
    seen.push(...page.map((s) => s.sessionId));
    if (!nextCursor) break;
    cursor = nextCursor;
  }
  expect(seen).toEqual(all.map((s) => s.sessionId));
  expect(pageOf(all, undefined, 7)).toEqual({ page: all });
});

test('a session that became active meanwhile moves to the top: the next page goes on where the last one ended', () => {
  const all = listed(6);
  const first = pageOf(all, undefined, 3);
  const moved = { ...all[4], updatedAt: '2026-11-28T06:00:00.000Z' };
  const now = [moved, ...all.filter((s) => s !== all[4])];
  const next = pageOf(now, readCursor(first.nextCursor!), 3);
  expect(next.page.map((s) => s.sessionId)).toEqual(['s03', 's05']);
  expect(next.nextCursor).toBeUndefined();
});

test('a cursor this agent did not give out is refused as invalid params', () => {
  for (const bad of ['', 'not base64 json', Buffer.from('[1,2]').toString('base64url')]) {
    let thrown: unknown;
    try {
      readCursor(bad);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(RequestError);
    expect((thrown as RequestError).code).toBe(-32602);
  }
});
