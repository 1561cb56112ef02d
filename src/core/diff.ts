/**
 * Line-level unified diffs, as `diff -u` and `git diff` print them, for showing a proposed edit to a
 * person before they approve it. Pure: no I/O, usable anywhere.
 */

export interface UnifiedDiffOptions {
  /** Header labels, e.g. `a/src/x.ts` and `b/src/x.ts` (`/dev/null` for a missing side). */
  oldLabel: string;
  newLabel: string;
  /** Unchanged lines shown around each change; changes closer than twice this share a hunk. */
  context?: number;
}

type Tag = ' ' | '-' | '+';

/** One line of the edit script; `text` keeps its `\n` unless it is a last line without one. */
interface Edit {
  tag: Tag;
  text: string;
}

/**
 * Beyond this many inserted plus deleted lines the shortest edit script is not searched for: the
 * differing middle is shown as deleted then inserted. Keeps time and memory bounded (the Myers
 * trace grows with the square of the distance) when two large files have little in common.
 */
const MAX_EDIT_DISTANCE = 2000;

const NO_NEWLINE = '\\ No newline at end of file';

/**
 * A unified diff from `oldText` to `newText`, or `''` when they are equal. Lines are compared with
 * their line ending, so a lost or added final newline is a change, marked as `diff` does.
 */
export function unifiedDiff(oldText: string, newText: string, options: UnifiedDiffOptions): string {
  if (oldText === newText) return '';
  const edits = diffLines(splitLines(oldText), splitLines(newText));
  const context = Math.max(0, options.context ?? 3);
  const out = [`--- ${options.oldLabel}`, `+++ ${options.newLabel}`];
  for (const [start, end] of hunkRanges(edits, context)) out.push(...formatHunk(edits, start, end));
  return `${out.join('\n')}\n`;
}

const ANSI = { red: '\x1b[31m', green: '\x1b[32m', cyan: '\x1b[36m', bold: '\x1b[1m', reset: '\x1b[0m' };

/** Adds ANSI colours to a unified diff: bold headers, cyan `@@` lines, red `-` and green `+` lines. */
export function colorizeDiff(diff: string): string {
  let inHeader = true;
  const paint = (color: string, line: string) => `${color}${line}${ANSI.reset}`;
  const lines = diff.split('\n').map((line) => {
    if (line.startsWith('@@')) {
      inHeader = false;
      return paint(ANSI.cyan, line);
    }
    if (inHeader && (line.startsWith('--- ') || line.startsWith('+++ '))) return paint(ANSI.bold, line);
    if (line.startsWith('-')) return paint(ANSI.red, line);
    if (line.startsWith('+')) return paint(ANSI.green, line);
    return line;
  });
  return lines.join('\n');
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n').map((line) => `${line}\n`);
  const last = lines.length - 1;
  if (text.endsWith('\n')) lines.pop();
  else lines[last] = lines[last].slice(0, -1);
  return lines;
}

/** The edit script turning `a` into `b`: common prefix and suffix, and Myers' diff in between. */
function diffLines(a: string[], b: string[]): Edit[] {
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < a.length - prefix &&
    suffix < b.length - prefix &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  )
    suffix++;
  const oldMiddle = a.slice(prefix, a.length - suffix);
  const newMiddle = b.slice(prefix, b.length - suffix);
  const same = (lines: string[]) => lines.map((text): Edit => ({ tag: ' ', text }));
  return [...same(a.slice(0, prefix)), ...middleEdits(oldMiddle, newMiddle), ...same(a.slice(a.length - suffix))];
}

function middleEdits(a: string[], b: string[]): Edit[] {
  const ids = new Map<string, number>();
  const intern = (line: string) => ids.get(line) ?? (ids.set(line, ids.size), ids.size - 1);
  const x = a.map(intern);
  const y = b.map(intern);
  const trace = myersTrace(x, y);
  if (trace) return backtrack(trace, a, b);
  return [...a.map((text): Edit => ({ tag: '-', text })), ...b.map((text): Edit => ({ tag: '+', text }))];
}

/**
 * Myers' O(ND) greedy search (Myers 1986, "An O(ND) Difference Algorithm"). Returns, for each edit
 * distance d, the furthest x reached on diagonals k = -d-1 .. d+1 before step d (index k + d + 1),
 * or undefined when the distance exceeds MAX_EDIT_DISTANCE.
 */
function myersTrace(a: number[], b: number[]): Int32Array[] | undefined {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_EDIT_DISTANCE);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return trace;
    }
  }
  return undefined;
}

function backtrack(trace: Int32Array[], a: string[], b: string[]): Edit[] {
  const edits: Edit[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = trace.length - 1; d >= 0; d--) {
    const v = trace[d];
    const at = (k: number) => v[k + d + 1];
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : at(prevK);
    const prevY = d === 0 ? 0 : prevX - prevK;
    for (; x > prevX && y > prevY; x--, y--) edits.push({ tag: ' ', text: a[x - 1] });
    if (d === 0) break;
    if (x === prevX) edits.push({ tag: '+', text: b[prevY] });
    else edits.push({ tag: '-', text: a[prevX] });
    x = prevX;
    y = prevY;
  }
  return edits.reverse();
}

/** Half-open ranges of `edits` to print as hunks: each change with `context` lines around it. */
function hunkRanges(edits: Edit[], context: number): [number, number][] {
  const ranges: [number, number][] = [];
  edits.forEach((edit, i) => {
    if (edit.tag === ' ') return;
    const start = Math.max(0, i - context);
    const end = Math.min(edits.length, i + context + 1);
    const last = ranges[ranges.length - 1];
    if (last && start <= last[1]) last[1] = end;
    else ranges.push([start, end]);
  });
  return ranges;
}

function formatHunk(edits: Edit[], start: number, end: number): string[] {
  let oldLine = 1;
  let newLine = 1;
  for (let i = 0; i < start; i++) {
    if (edits[i].tag !== '+') oldLine++;
    if (edits[i].tag !== '-') newLine++;
  }
  const body: string[] = [];
  let oldCount = 0;
  let newCount = 0;
  for (let i = start; i < end; i++) {
    const { tag, text } = edits[i];
    if (tag !== '+') oldCount++;
    if (tag !== '-') newCount++;
    if (text.endsWith('\n')) body.push(tag + text.slice(0, -1));
    else body.push(tag + text, NO_NEWLINE);
  }
  return [`@@ -${span(oldLine, oldCount)} +${span(newLine, newCount)} @@`, ...body];
}

/** `diff -u` spans: a count of 1 is left out, and an empty side names the line before it. */
function span(start: number, count: number): string {
  if (count === 0) return `${start - 1},0`;
  return count === 1 ? `${start}` : `${start},${count}`;
}
