import { parseAtPaths } from './at-paths';

describe('parseAtPaths', () => {
  it.each([
    ['Review @src/app.ts', ['src/app.ts']],
    ['@README.md first', ['README.md']],
    ['see @a.ts, @b.ts. and (@c.md)', ['a.ts', 'b.ts', 'c.md']],
    ['@my\\ notes.md please', ['my notes.md']],
    ['@src/**/*.ts and @docs', ['src/**/*.ts', 'docs']],
    ['twice @a.ts @a.ts', ['a.ts']],
    ['mail me@example.com', []],
    ['a lone @ here', []],
    ['line one\n@next/line.txt', ['next/line.txt']],
  ])('%j names %j', (prompt, paths) => {
    expect(parseAtPaths(prompt)).toEqual(paths);
  });
});
