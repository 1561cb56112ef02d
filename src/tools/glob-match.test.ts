import { compileGitIgnore, compileGlob, compileNameOrPathGlob, hasGlobMagic } from './glob-match';

describe('compileGlob', () => {
  const cases: Array<[string, string, boolean]> = [
    ['*.ts', 'a.ts', true],
    ['*.ts', 'src/a.ts', false],
    ['*.ts', '.hidden.ts', true],
    ['**/*.ts', 'a.ts', true],
    ['**/*.ts', 'src/deep/a.ts', true],
    ['**/*.ts', 'src/deep/a.js', false],
    ['src/**', 'src/a/b.txt', true],
    ['src/**', 'lib/a.txt', false],
    ['src/**/test/*.ts', 'src/test/a.ts', true],
    ['src/**/test/*.ts', 'src/x/y/test/a.ts', true],
    ['src/**/test/*.ts', 'src/x/y/test/sub/a.ts', false],
    ['a**b', 'axxb', true],
    ['a**b', 'ax/xb', false],
    ['file?.txt', 'file1.txt', true],
    ['file?.txt', 'file10.txt', false],
    ['file?.txt', 'file/.txt', false],
    ['*.{js,jsx}', 'a.jsx', true],
    ['*.{js,jsx}', 'a.ts', false],
    ['{src,test}/**/*.ts', 'test/a/b.ts', true],
    ['{src,test}/**/*.ts', 'lib/a.ts', false],
    ['*.{t{s,sx},js}', 'a.tsx', true],
    ['*.{t{s,sx},js}', 'a.tx', false],
    ['{a}.txt', '{a}.txt', true],
    ['[abc].md', 'b.md', true],
    ['[abc].md', 'd.md', false],
    ['[a-c]x', 'bx', true],
    ['[!a-c]x', 'dx', true],
    ['[!a-c]x', 'ax', false],
    ['[^a]x', 'bx', true],
    ['[]]x', ']x', true],
    ['[x', '[x', true],
    ['\\*.md', '*.md', true],
    ['\\*.md', 'a.md', false],
    ['a.b', 'axb', false],
    ['(x)+.ts', '(x)+.ts', true],
  ];
  it.each(cases)('%s matches %s: %s', (pattern, path, expected) => {
    expect(compileGlob(pattern)(path)).toBe(expected);
  });

  it('is case-sensitive unless told otherwise', () => {
    expect(compileGlob('*.TS')('a.ts')).toBe(false);
    expect(compileGlob('*.TS', { caseSensitive: false })('a.ts')).toBe(true);
    expect(compileGlob('[A-C]x', { caseSensitive: false })('bX')).toBe(true);
  });

  it('tests a pattern without a slash against the base name only', () => {
    expect(compileNameOrPathGlob('*.ts')('src/deep/a.ts')).toBe(true);
    expect(compileNameOrPathGlob('src/*.ts')('src/deep/a.ts')).toBe(false);
    expect(compileNameOrPathGlob('src/**')('src/deep/a.ts')).toBe(true);
  });

  it('detects glob syntax', () => {
    expect(hasGlobMagic('src/a.ts')).toBe(false);
    expect(hasGlobMagic('src/*.ts')).toBe(true);
    expect(hasGlobMagic('a{b,c}')).toBe(true);
  });
});

describe('compileGitIgnore', () => {
  const ignored = compileGitIgnore(
    ['# build output', 'dist/', '*.log', '!keep.log', '/root-only.txt', 'docs/*.tmp', 'cache', '', '\\#hash'].join(
      '\n',
    ),
  );
  const cases: Array<[string, boolean, boolean]> = [
    ['dist', true, true],
    ['dist', false, false],
    ['dist/a.js', false, true],
    ['pkg/dist/a.js', false, true],
    ['a.log', false, true],
    ['sub/b.log', false, true],
    ['keep.log', false, false],
    ['root-only.txt', false, true],
    ['sub/root-only.txt', false, false],
    ['docs/a.tmp', false, true],
    ['docs/deep/a.tmp', false, false],
    ['cache/x', false, true],
    ['src/cache', true, true],
    ['#hash', false, true],
    ['src/index.ts', false, false],
  ];
  it.each(cases)('%s (directory: %s) ignored: %s', (path, isDirectory, expected) => {
    expect(ignored(path, isDirectory)).toBe(expected);
  });

  it('cannot re-include a file inside an ignored directory', () => {
    const rules = compileGitIgnore('build/\n!build/keep.txt\n');
    expect(rules('build/keep.txt', false)).toBe(true);
  });
});

// A backtracking RegExp needs minutes for these. The jest timeout is what fails the test if that comes
// back; it can only fire once the test yields to the timers. The immediate comes first so that the
// zero timeout is set after the event loop has read the clock again, and expires after jest's.
describe('patterns that make a backtracking matcher blow up', () => {
  const yieldToTimers = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  const bomb = '*a'.repeat(12) + '*c';
  const name = 'a'.repeat(40);

  it('matches a glob of many stars in linear time', async () => {
    expect(compileGlob(bomb)(name)).toBe(false);
    expect(compileGlob(bomb)(`${name}c`)).toBe(true);
    expect(compileNameOrPathGlob(`{x,${bomb}}`)(`dir/${name}`)).toBe(false);
    expect(compileGlob(`**/${bomb}`)(`${'a/'.repeat(20)}${name}`)).toBe(false);
    await yieldToTimers();
  }, 2000);

  it('matches the same pattern in a .gitignore in linear time', async () => {
    const ignored = compileGitIgnore(`${bomb}\n!${bomb}b\n`);
    expect(ignored(`src/${name}`, false)).toBe(false);
    expect(ignored(`src/${name}c`, false)).toBe(true);
    await yieldToTimers();
  }, 2000);
});
