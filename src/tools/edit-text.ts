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
