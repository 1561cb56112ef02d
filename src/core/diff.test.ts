import { stripVTControlCharacters } from 'node:util';
import { colorizeDiff, unifiedDiff } from './diff';

const labels = { oldLabel: 'a/f.txt', newLabel: 'b/f.txt' };
const lines = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `line ${from + i}\n`).join('');

/** Applies a unified diff to `text`, trusting its hunk headers: an independent check of the output. */
function applyPatch(text: string, diff: string): string {
  const source = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const body = diff.split('\n').slice(2, -1);
  const out: string[] = [];
  let next = 0;
  body.forEach((line, i) => {
    const header = /^@@ -(\d+)(?:,(\d+))? /.exec(line);
    if (header) {
      const start = Number(header[1]) - (header[2] === '0' ? 0 : 1);
      while (next < start) out.push(source[next++]);
      return;
    }
    if (line.startsWith('\\')) return;
    const full = line.slice(1) + (body[i + 1]?.startsWith('\\') ? '' : '\n');
    if (line[0] !== '+') expect(source[next++]).toBe(full);
    if (line[0] !== '-') out.push(full);
  });
  return out.concat(source.slice(next)).join('');
}

test('a new file is one hunk of additions against an empty old side', () => {
  const diff = unifiedDiff('', 'one\ntwo\n', { oldLabel: '/dev/null', newLabel: 'b/new.txt' });
  expect(diff).toBe('--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n');
});

test('an edit in the middle shows three lines of context on each side', () => {
  const before = lines(1, 10);
  const after = before.replace('line 5\n', 'line five\n');
  expect(unifiedDiff(before, after, labels)).toBe(
    [
      '--- a/f.txt',
      '+++ b/f.txt',
      '@@ -2,7 +2,7 @@',
      ' line 2',
      ' line 3',
      ' line 4',
      '-line 5',
      '+line five',
      ' line 6',
      ' line 7',
      ' line 8',
      '',
    ].join('\n'),
  );
});

test('deleting every line leaves an empty new side', () => {
  expect(unifiedDiff('x\n', '', labels)).toBe('--- a/f.txt\n+++ b/f.txt\n@@ -1 +0,0 @@\n-x\n');
});

test('a deletion inside a file', () => {
  const diff = unifiedDiff(lines(1, 5), lines(1, 2) + lines(4, 5), { ...labels, context: 1 });
  expect(diff).toBe('--- a/f.txt\n+++ b/f.txt\n@@ -2,3 +2,2 @@\n line 2\n-line 3\n line 4\n');
});

test('identical texts give an empty string', () => {
  expect(unifiedDiff('same\n', 'same\n', labels)).toBe('');
  expect(unifiedDiff('', '', labels)).toBe('');
});

test('a missing final newline is marked, and adding one is a change', () => {
  expect(unifiedDiff('a\nb', 'a\nc', labels)).toBe(
    '--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of ' +
      'file\n',
  );
  expect(unifiedDiff('a\nb', 'a\nb\n', labels)).toBe(
    '--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n',
  );
});

test('changes at most twice the context apart share a hunk, as with diff -u; farther ones do not', () => {
  const before = lines(1, 30);
  const close = before.replace('line 5\n', 'X\n').replace('line 12\n', 'Y\n');
  expect(unifiedDiff(before, close, labels).match(/^@@.*$/gm)).toEqual(['@@ -2,14 +2,14 @@']);
  const far = before.replace('line 5\n', 'X\n').replace('line 13\n', 'Y\n');
  const diff = unifiedDiff(before, far, labels);
  expect(diff.match(/^@@.*$/gm)).toEqual(['@@ -2,7 +2,7 @@', '@@ -10,7 +10,7 @@']);
  expect(applyPatch(before, diff)).toBe(far);
});

test('insertions shift the new side line numbers of later hunks', () => {
  const before = lines(1, 20);
  const after = `new first\n${before.replace('line 18\n', 'line 18\nadded\n')}`;
  const diff = unifiedDiff(before, after, labels);
  expect(diff.match(/^@@.*$/gm)).toEqual(['@@ -1,3 +1,4 @@', '@@ -16,5 +17,6 @@']);
  expect(applyPatch(before, diff)).toBe(after);
});

test('the diff is minimal and round-trips on reordered and repeated lines', () => {
  const before = 'a\nb\nc\na\nb\nb\na\n';
  const after = 'c\nb\na\nb\na\nc\n';
  const diff = unifiedDiff(before, after, { ...labels, context: 0 });
  expect(
    diff
      .split('\n')
      .slice(2)
      .filter((l) => l.startsWith('-') || l.startsWith('+')),
  ).toHaveLength(5);
  expect(applyPatch(before, unifiedDiff(before, after, labels))).toBe(after);
});

/** Length of the longest common subsequence, by dynamic programming: the minimal diff keeps that many lines. */
function lcsLength(a: string[], b: string[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    let diagonal = 0;
    b.forEach((y, j) => {
      const above = row[j + 1];
      row[j + 1] = x === y ? diagonal + 1 : Math.max(row[j], above);
      diagonal = above;
    });
  }
  return row[b.length];
}

test('random edits round-trip and keep the longest common subsequence', () => {
  let seed = 42;
  const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
  const randomText = () =>
    Array.from({ length: random(12) }, () => 'abcd'[random(4)]).join('\n') + (random(2) ? '\n' : '');
  const split = (text: string) => text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  for (let i = 0; i < 300; i++) {
    const [before, after] = [randomText(), randomText()];
    expect(applyPatch(before, unifiedDiff(before, after, { ...labels, context: random(4) }))).toBe(after);
    const full = unifiedDiff(before, after, { ...labels, context: 1000 });
    const kept = full === '' ? split(before).length : full.split('\n').filter((l) => l.startsWith(' ')).length;
    expect(kept).toBe(lcsLength(split(before), split(after)));
  }
});

test('a 2000-line file with a few changes diffs quickly', () => {
  const before = lines(1, 2000);
  const after = before
    .replace('line 10\n', 'ten\n')
    .replace('line 1000\n', '')
    .replace('line 1990\n', 'line 1990\nextra\n');
  const started = Date.now();
  const diff = unifiedDiff(before, after, labels);
  expect(Date.now() - started).toBeLessThan(200);
  expect(diff.match(/^@@/gm)).toHaveLength(3);
  expect(applyPatch(before, diff)).toBe(after);
});

test('two unrelated large files still diff in bounded time', () => {
  const before = lines(1, 3000);
  const after = before.replace(/line/g, 'row');
  const started = Date.now();
  const diff = unifiedDiff(before, after, labels);
  expect(Date.now() - started).toBeLessThan(2000);
  expect(applyPatch(before, diff)).toBe(after);
});

test('colorizeDiff paints headers, hunk lines, deletions and additions', () => {
  const colored = colorizeDiff(unifiedDiff('a\n', 'b\n', labels));
  expect(colored).toContain('\x1b[1m--- a/f.txt\x1b[0m');
  expect(colored).toContain('\x1b[36m@@ -1 +1 @@\x1b[0m');
  expect(colored).toContain('\x1b[31m-a\x1b[0m');
  expect(colored).toContain('\x1b[32m+b\x1b[0m');
  expect(stripVTControlCharacters(colored)).toBe(unifiedDiff('a\n', 'b\n', labels));
});
