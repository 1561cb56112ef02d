/**
 * Glob patterns: `**` (any number of directories), `*` and `?` (within one path segment), `{a,b}`
 * (nested alternatives), `[abc]`, `[a-z]`, `[!x]`/`[^x]`, and `\` escapes. Paths use `/` separators.
 * Dotfiles match like any other name (Gemini CLI's glob runs with `dot: true`). Patterns are matched
 * by `glob-nfa.ts` in time linear in the path, never by a backtracking RegExp. Pure code: no Node
 * imports, safe in the workflow bundle.
 */
import { alt, char, compilePattern, type Pattern, seq, star } from './glob-nfa';

export interface GlobOptions {
  /** Defaults to true. */
  caseSensitive?: boolean;
}

interface Parsed {
  node: Pattern;
  end: number;
}

const notSlash = char((c) => c !== '/');
const anyChar = char(() => true);

/** Returns a predicate testing whole paths against `pattern`. */
export function compileGlob(pattern: string, options: GlobOptions = {}): (path: string) => boolean {
  return compilePattern(parseSequence(pattern, 0, false, options.caseSensitive !== false).node);
}

/** True when `pattern` contains glob syntax (otherwise it names one path literally). */
export function hasGlobMagic(pattern: string): boolean {
  return /[*?[\]{}]/.test(pattern);
}

/**
 * A predicate for filters like `include_pattern` or `ignore`: a pattern without `/` is tested
 * against the base name (so `*.ts` finds files at any depth), one with `/` against the whole path.
 */
export function compileNameOrPathGlob(pattern: string, options: GlobOptions = {}): (path: string) => boolean {
  const test = compileGlob(pattern, options);
  if (pattern.includes('/')) return test;
  return (path) => test(path.slice(path.lastIndexOf('/') + 1));
}

function parseSequence(p: string, start: number, inBrace: boolean, caseSensitive: boolean): Parsed {
  const items: Pattern[] = [];
  let i = start;
  while (i < p.length) {
    const c = p[i];
    if (inBrace && (c === ',' || c === '}')) break;
    const special = parseSpecial(p, i, caseSensitive);
    if (special) {
      items.push(special.node);
      i = special.end;
    } else {
      items.push(literal(c, caseSensitive));
      i += 1;
    }
  }
  return { node: seq(items), end: i };
}

function literal(c: string, caseSensitive: boolean): Pattern {
  if (caseSensitive) return char((x) => x === c);
  const lower = c.toLowerCase();
  return char((x) => x === c || x.toLowerCase() === lower);
}

function parseSpecial(p: string, i: number, caseSensitive: boolean): Parsed | undefined {
  switch (p[i]) {
    case '\\':
      return i + 1 < p.length ? { node: literal(p[i + 1], caseSensitive), end: i + 2 } : undefined;
    case '*':
      return parseStars(p, i);
    case '?':
      return { node: notSlash, end: i + 1 };
    case '[':
      return parseClass(p, i, caseSensitive);
    case '{':
      return parseBraces(p, i, caseSensitive);
    default:
      return undefined;
  }
}

/** `**` as a whole segment spans directories; anywhere else stars stay within one segment. */
function parseStars(p: string, i: number): Parsed {
  let end = i;
  while (p[end] === '*') end += 1;
  const before = p[i - 1];
  const after = p[end];
  const segmentStart = before === undefined || '/{,'.includes(before);
  if (end - i < 2 || !segmentStart) return { node: star(notSlash), end };
  if (after === '/') return { node: star(seq([star(notSlash), char((c) => c === '/')])), end: end + 1 };
  if (after === undefined || after === ',' || after === '}') return { node: star(anyChar), end };
  return { node: star(notSlash), end };
}

/**
 * `[...]` character class; an unterminated `[` is a literal. The class becomes a one-character
 * RegExp, which cannot backtrack.
 */
function parseClass(p: string, i: number, caseSensitive: boolean): Parsed | undefined {
  let j = i + 1;
  const negate = p[j] === '!' || p[j] === '^';
  if (negate) j += 1;
  let body = '';
  for (let first = true; j < p.length; first = false) {
    const c = p[j];
    if (c === ']' && !first) {
      const re = new RegExp(negate ? `^[^/${body}]$` : `^[${body}]$`, caseSensitive ? '' : 'i');
      return { node: char((x) => re.test(x)), end: j + 1 };
    }
    if (c === '\\' && j + 1 < p.length) {
      body += escapeClassChar(p[j + 1]);
      j += 2;
    } else {
      body += c === '-' ? '-' : escapeClassChar(c);
      j += 1;
    }
  }
  return undefined;
}

/** `{a,b,...}` alternatives, each a glob itself; `{a}` and an unterminated `{` are literals. */
function parseBraces(p: string, i: number, caseSensitive: boolean): Parsed | undefined {
  const alternatives: Pattern[] = [];
  let j = i + 1;
  while (j <= p.length) {
    const option = parseSequence(p, j, true, caseSensitive);
    alternatives.push(option.node);
    if (p[option.end] === ',') {
      j = option.end + 1;
    } else if (p[option.end] === '}') {
      if (alternatives.length < 2) return undefined;
      return { node: alt(alternatives), end: option.end + 1 };
    } else {
      return undefined;
    }
  }
  return undefined;
}

function escapeClassChar(c: string): string {
  return c.replace(/[\\\]^[-]/g, '\\$&');
}

interface IgnoreRule {
  test: (path: string) => boolean;
  negate: boolean;
  directoryOnly: boolean;
}

/**
 * Compiles the text of a `.gitignore` into a predicate over paths relative to the directory that
 * holds it. Supports comments, `!` negation (last matching rule wins), trailing `/` for
 * directories, anchoring by a leading or inner `/`, and exclusion of everything under an ignored
 * directory (git cannot re-include a file whose parent directory is excluded).
 */
export function compileGitIgnore(text: string): (path: string, isDirectory: boolean) => boolean {
  const rules = text.split(/\r?\n/).flatMap((line) => {
    const rule = parseIgnoreLine(line);
    return rule ? [rule] : [];
  });
  const matches = (path: string, isDirectory: boolean): boolean => {
    let ignored = false;
    for (const rule of rules) {
      if (rule.directoryOnly && !isDirectory) continue;
      if (rule.test(path)) ignored = !rule.negate;
    }
    return ignored;
  };
  return (path, isDirectory) => {
    const parts = path.split('/').filter((part) => part !== '' && part !== '.');
    for (let k = 1; k <= parts.length; k += 1) {
      const isDir = k < parts.length || isDirectory;
      if (matches(parts.slice(0, k).join('/'), isDir)) return true;
    }
    return false;
  };
}

function parseIgnoreLine(line: string): IgnoreRule | undefined {
  let pattern = line.replace(/(?<!\\)\s+$/, '');
  if (pattern === '' || pattern.startsWith('#')) return undefined;
  const negate = pattern.startsWith('!');
  if (negate) pattern = pattern.slice(1);
  if (pattern.startsWith('\\#') || pattern.startsWith('\\!')) pattern = pattern.slice(1);
  const directoryOnly = pattern.endsWith('/');
  if (directoryOnly) pattern = pattern.slice(0, -1);
  const anchored = pattern.includes('/');
  if (pattern.startsWith('/')) pattern = pattern.slice(1);
  if (pattern === '') return undefined;
  const { node } = parseSequence(pattern, 0, false, true);
  const anyDirectories = alt([seq([]), seq([star(anyChar), char((c) => c === '/')])]);
  return { test: compilePattern(anchored ? node : seq([anyDirectories, node])), negate, directoryOnly };
}
