/**
 * The lexical half of the shell splitter (shell-split.ts): words, quotes, escapes and the
 * substitutions (`$( )`, backticks, `${ }`) that may hide commands inside a word. The command
 * level (separators, groups, redirections) lives in the subclass.
 */

export interface ShellCommand {
  /** The command as written, redirections included, trimmed. */
  text: string;
  /** Command name: env assignments skipped, quotes removed, path stripped (`/usr/bin/git` → `git`). */
  root: string;
  /** `root` followed by the arguments as written, without env assignments: `FOO=1 /bin/rm x` → `rm x`. */
  normalized: string;
  /** Reads or writes a file through `>`, `>>`, `<`, `2>`, `&>`...; fd duplication (`2>&1`) does not count. */
  hasRedirection: boolean;
}

export interface Word {
  raw: string;
  /** Quotes and escapes removed; substitutions kept as written. */
  plain: string;
}

/** Input bash would reject, or that this parser cannot follow safely. */
export class ParseError extends Error {}

export const WORD_END = new Set([' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')']);

export abstract class ShellScanner {
  protected i = 0;
  /** Commands found so far; a command comes before the substitutions inside it. */
  protected readonly out: ShellCommand[] = [];

  constructor(
    protected readonly src: string,
    protected level: number,
  ) {}

  /** Parses commands up to `end` (consumed) or, for `null`, the end of input. */
  protected abstract sequence(end: ')' | '}' | null): void;

  /** Parses a separate piece of shell text (a backtick body, a `bash -c` script) one level deeper. */
  protected abstract nested(text: string): ShellCommand[];

  protected word(): Word {
    const from = this.i;
    let plain = '';
    for (;;) {
      const c = this.src[this.i];
      if (c === undefined || WORD_END.has(c)) break;
      const at = this.i;
      if (c === '\\') {
        const next = this.src[this.i + 1];
        plain += next === '\n' ? '' : (next ?? '\\');
        this.i += 2;
      } else if (c === "'" || (c === '$' && this.src[this.i + 1] === "'")) {
        plain += this.singleQuoted(c === '$');
      } else if (c === '"' || (c === '$' && this.src[this.i + 1] === '"')) {
        this.i += c === '$' ? 2 : 1;
        plain += this.doubleQuoted(true);
      } else if (c === '$' || c === '`') {
        this.expansion(false);
        plain += this.src.slice(at, this.i);
      } else {
        plain += c;
        this.i++;
      }
    }
    this.i = Math.min(this.i, this.src.length);
    if (this.i === from) throw new ParseError(`unexpected "${this.src[from]}"`);
    return { raw: this.src.slice(from, this.i), plain };
  }

  /** `'...'`, or `$'...'` in which a backslash escapes the next character. */
  protected singleQuoted(ansi: boolean): string {
    let j = this.i + (ansi ? 2 : 1);
    while (j < this.src.length && this.src[j] !== "'") j += ansi && this.src[j] === '\\' ? 2 : 1;
    if (j >= this.src.length) throw new ParseError('unbalanced single quote');
    const body = this.src.slice(this.i + (ansi ? 2 : 1), j);
    this.i = j + 1;
    return body;
  }

  /** The inside of `"..."` (after the opening quote), or a whole heredoc body when `closing` is false. */
  protected doubleQuoted(closing: boolean): string {
    let plain = '';
    for (;;) {
      const c = this.src[this.i];
      if (c === undefined) {
        if (closing) throw new ParseError('unbalanced double quote');
        return plain;
      }
      if (c === '"' && closing) {
        this.i++;
        return plain;
      }
      const at = this.i;
      if (c === '\\') {
        const next = this.src[this.i + 1] ?? '';
        plain += '$`"\\\n'.includes(next) ? next.replace('\n', '') : `\\${next}`;
        this.i += 2;
      } else if (c === '$' || c === '`') {
        this.expansion(true);
        plain += this.src.slice(at, this.i);
      } else {
        plain += c;
        this.i++;
      }
    }
  }

  /** At `$` or a backtick: parses `$( )`, `` ` ` ``, `${ }`; a lone `$` is a plain character. */
  private expansion(quoted: boolean): void {
    const next = this.src[this.i + 1];
    if (this.src[this.i] === '`') this.backquoted();
    else if (next === '(') {
      this.i += 2;
      this.sequence(')');
    } else if (next === '{') this.parameter(quoted);
    else this.i++;
  }

  /** `` `...` ``: the body is cut out and parsed on its own; a nested escaped backtick is refused. */
  private backquoted(): void {
    let j = this.i + 1;
    let body = '';
    for (; this.src[j] !== '`'; j++) {
      if (j >= this.src.length) throw new ParseError('unbalanced backtick');
      if (this.src[j] !== '\\') body += this.src[j];
      else if (this.src[++j] === '`') throw new ParseError('nested backticks');
      else body += '$\\'.includes(this.src[j] ?? '') ? this.src[j] : `\\${this.src[j] ?? ''}`;
    }
    this.i = j + 1;
    this.out.push(...this.nested(body));
  }

  /** `${...}`, which may hold quotes and command substitutions (`${x:-$(rm y)}`). */
  private parameter(quoted: boolean): void {
    this.i += 2;
    for (let depth = 1; depth > 0; ) {
      const c = this.src[this.i];
      if (c === undefined) throw new ParseError('unbalanced "${"');
      if (c === '\\') this.i += 2;
      else if (c === "'" && !quoted) this.singleQuoted(false);
      else if (c === '"') {
        this.i++;
        this.doubleQuoted(true);
      } else if (c === '$' || c === '`') this.expansion(quoted);
      else {
        depth += c === '{' ? 1 : c === '}' ? -1 : 0;
        this.i++;
      }
    }
  }

  /** Spaces, tabs and backslash-newline line continuations. */
  protected skipBlanks(): void {
    for (;;) {
      const c = this.src[this.i];
      if (c === ' ' || c === '\t') this.i++;
      else if (c === '\\' && this.src[this.i + 1] === '\n') this.i += 2;
      else return;
    }
  }
}
