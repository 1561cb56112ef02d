/**
 * The text side of `replace`: counting and over-escaping repair. Pure (the tool modules reach the
 * workflow bundle), so the tool, the edit fixer activity and tests share one meaning of "matches".
 */

/** Backslash runs before a character models tend to escape once too often, or before a real line break. */
const OVER_ESCAPED = /\\+([nrt'"`\\\n])/g;
const UNESCAPED: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t', '\n': '\n' };

/**
 * `text` with one level of escaping removed where a model wrote an escape sequence instead of the
 * character itself (`\n` for a line break, `\"` for a quote), as Gemini CLI's `replace` repairs it.
 * Text without such sequences comes back unchanged.
 */
export function unescapeOverEscaped(text: string): string {
  return text.replace(OVER_ESCAPED, (_match, char: string) => UNESCAPED[char] ?? char);
}

/** Non-overlapping occurrences, scanned left to right (the same ones `split` replaces). */
export function countOccurrences(text: string, search: string): number {
  if (search === '') return 0;
  let count = 0;
  for (let at = text.indexOf(search); at !== -1; at = text.indexOf(search, at + search.length)) {
    count += 1;
  }
  return count;
}

/** Text with Windows line endings made `\n`, as `replace` matches it. */
export function toLf(text: string): string {
  return text.replace(/\r\n/g, '\n');
}

/**
 * Whether the edit fixer's `proposed` replacement says what the approved `approved` one says:
 * the same text, or the same lines with only their indentation (and trailing whitespace, line
 * endings, one level of escaping) changed, where the indentation changes consistently and keeps
 * which line is nested deeper than which. Anything else changes the edit's meaning.
 */
export function keepsReplacement(approved: string, proposed: string): boolean {
  const wanted = toLf(proposed);
  return [approved, unescapeOverEscaped(approved)].some((text) => sameUpToIndentation(toLf(text), wanted));
}

function sameUpToIndentation(approved: string, proposed: string): boolean {
  if (approved === proposed) return true;
  const from = approved.split('\n');
  const to = proposed.split('\n');
  if (from.length !== to.length) return false;
  const indents = new Map<string, string>();
  for (const [i, line] of from.entries()) {
    const [indent, rest] = splitIndent(line);
    const [newIndent, newRest] = splitIndent(to[i]);
    if (rest !== newRest) return false;
    if (rest === '') continue;
    if ((indents.get(indent) ?? newIndent) !== newIndent) return false;
    indents.set(indent, newIndent);
  }
  const pairs = [...indents].sort(([a], [b]) => a.length - b.length);
  return pairs.every(([indent, newIndent], i) => {
    if (i === 0) return true;
    const [before, newBefore] = pairs[i - 1];
    return before.length === indent.length ? newBefore === newIndent : newBefore.length < newIndent.length;
  });
}

/** A line's leading whitespace and the rest without trailing whitespace. */
function splitIndent(line: string): [string, string] {
  const indent = /^[ \t]*/.exec(line)?.[0] ?? '';
  return [indent, line.slice(indent.length).trimEnd()];
}
