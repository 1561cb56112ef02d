/**
 * Glob patterns compiled to regular expressions: `**` (any number of directories), `*` and `?`
 * (within one path segment), `{a,b}` (nested alternatives), `[abc]`, `[a-z]`, `[!x]`/`[^x]`, and
 * `\` escapes. Paths use `/` separators. Dotfiles match like any other name (Gemini CLI's glob runs
 * with `dot: true`). Pure code: no Node imports, safe in the workflow bundle.
 */

export interface GlobOptions {
  /** Defaults to true. */
  caseSensitive?: boolean;
}

interface Parsed {
  re: string;
  end: number;
}

/** Compiles `pattern` to a RegExp that must match a whole path. */
export function globToRegExp(pattern: string, options: GlobOptions = {}): RegExp {
  const { re } = parseSequence(pattern, 0, false);
  return new RegExp(`^${re}$`, options.caseSensitive === false ? 'i' : '');
}

/** Returns a predicate testing whole paths against `pattern`. */
export function compileGlob(pattern: string, options: GlobOptions = {}): (path: string) => boolean {
  const regex = globToRegExp(pattern, options);
  return (path) => regex.test(path);
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

function parseSequence(p: string, start: number, inBrace: boolean): Parsed {
  let re = '';
  let i = start;
  while (i < p.length) {
    const c = p[i];
    if (inBrace && (c === ',' || c === '}')) break;
    const special = parseSpecial(p, i);
    if (special) {
      re += special.re;
      i = special.end;
    } else {
      re += escapeRegExp(c);
      i += 1;
    }
  }
  return { re, end: i };
}

function parseSpecial(p: string, i: number): Parsed | undefined {
  switch (p[i]) {
    case '\\':
      return i + 1 < p.length ? { re: escapeRegExp(p[i + 1]), end: i + 2 } : undefined;
    case '*':
      return parseStars(p, i);
    case '?':
      return { re: '[^/]', end: i + 1 };
    case '[':
      return parseClass(p, i);
    case '{':
      return parseBraces(p, i);
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
  if (end - i < 2 || !segmentStart) return { re: '[^/]*', end };
  if (after === '/') return { re: '(?:[^/]*/)*', end: end + 1 };
  if (after === undefined || after === ',' || after === '}') return { re: '.*', end };
  return { re: '[^/]*', end };
}

/** `[...]` character class; an unterminated `[` is a literal. */
function parseClass(p: string, i: number): Parsed | undefined {
  let j = i + 1;
  const negate = p[j] === '!' || p[j] === '^';
  if (negate) j += 1;
  let body = '';
  for (let first = true; j < p.length; first = false) {
    const c = p[j];
    if (c === ']' && !first) {
      return { re: negate ? `[^/${body}]` : `[${body}]`, end: j + 1 };
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
function parseBraces(p: string, i: number): Parsed | undefined {
  const alternatives: string[] = [];
  let j = i + 1;
  while (j <= p.length) {
    const alt = parseSequence(p, j, true);
    alternatives.push(alt.re);
    if (p[alt.end] === ',') {
      j = alt.end + 1;
    } else if (p[alt.end] === '}') {
      if (alternatives.length < 2) return undefined;
      return { re: `(?:${alternatives.join('|')})`, end: alt.end + 1 };
    } else {
      return undefined;
    }
  }
  return undefined;
}

function escapeRegExp(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function escapeClassChar(c: string): string {
  return c.replace(/[\\\]^[-]/g, '\\$&');
}

interface IgnoreRule {
  regex: RegExp;
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
      if (rule.regex.test(path)) ignored = !rule.negate;
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
  const { re } = parseSequence(pattern, 0, false);
  const regex = new RegExp(anchored ? `^${re}$` : `^(?:.*/)?${re}$`);
  return { regex, negate, directoryOnly };
}
