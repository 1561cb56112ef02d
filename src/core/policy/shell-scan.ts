/**
 * The lexical half of the shell splitter (shell-split.ts): words, quotes, escapes and the
 * substitutions (`$( )`, backticks, `${ }`, `$(( ))`, `<( )`) that may hide commands inside a
 * word. The command level (separators, groups, redirections, here-documents) lives in the subclass.
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
  /**
   * `root` and its first argument as written, the subcommand of `git status -s` (`git status`):
   * what `proceed_always` allows. Just `root` for a command without arguments.
   */
  prefix: string;
}

export interface Word {
  raw: string;
  /** Quotes and escapes removed; substitutions kept as written. */
  plain: string;
  /** Its value is only known when it runs: it holds a substitution, or a `$'...'` escape. */
  dynamic: boolean;
  /** Its quoted or escaped text spells a substitution (`'$(rm x)'`), which a later `eval` could run. */
  literalCode: boolean;
}

/** Input bash would reject, or that this parser cannot follow safely. */
export class ParseError extends Error {}

export const WORD_END = new Set([' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')']);

interface WordState {
  dynamic: boolean;
  /** The word's quoted and escaped text; substitutions stand as a space. */
  literal: string;
}

export abstract class ShellScanner {
  protected i = 0;
  /** Commands found so far; a command comes before the substitutions inside it. */
  protected readonly out: ShellCommand[] = [];
  /** How many substitutions (`$( )`, `<( )`...) enclose the current position. */
  protected substitutions = 0;
  private cur: WordState = { dynamic: false, literal: '' };

  constructor(
    protected readonly src: string,
    protected level: number,
  ) {}

  /** Parses commands up to `end` (consumed) or, for `null`, the end of input. */
  protected abstract sequence(end: ')' | '}' | null): void;

  /** Parses a separate piece of shell text (a backtick body) one level deeper, inside a substitution. */
  protected abstract nested(text: string): ShellCommand[];

  protected word(): Word {
    const from = this.i;
    const saved = this.cur;
    this.cur = { dynamic: false, literal: '' };
    let plain = '';
    if ((this.src[this.i] === '<' || this.src[this.i] === '>') && this.src[this.i + 1] === '(') {
      this.i += 2;
      this.substitution(')');
      plain += this.src.slice(from, this.i);
    }
    for (;;) {
      const c = this.src[this.i];
      if (c === undefined || WORD_END.has(c)) break;
      plain += this.wordPart(c);
    }
    this.i = Math.min(this.i, this.src.length);
    const state = this.cur;
    this.cur = saved;
    if (this.i === from) throw new ParseError(`unexpected "${this.src[from]}"`);
    const literalCode = /\$[({[]|`/.test(state.literal);
    return { raw: this.src.slice(from, this.i), plain, dynamic: state.dynamic, literalCode };
  }

  /** One piece of a word starting at `c`; returns its text with quotes and escapes removed. */
  private wordPart(c: string): string {
    const at = this.i;
    if (c === '\\') {
      const next = this.src[this.i + 1];
      this.i += 2;
      return this.literal(next === '\n' ? '' : (next ?? '\\'));
    }
    if (c === "'" || (c === '$' && this.src[this.i + 1] === "'")) return this.literal(this.singleQuoted(c === '$'));
    if (c === '"' || (c === '$' && this.src[this.i + 1] === '"')) {
      this.i += c === '$' ? 2 : 1;
      return this.doubleQuoted(true);
    }
    if (c === '$' || c === '`') {
      this.expansion(false);
      return this.src.slice(at, this.i);
    }
    this.i++;
    return this.literal(c);
  }

  private literal(text: string): string {
    this.cur.literal += text;
    return text;
  }

  /** `'...'`, or `$'...'` in which a backslash escapes the next character (and makes the word dynamic). */
  protected singleQuoted(ansi: boolean): string {
    let j = this.i + (ansi ? 2 : 1);
    while (j < this.src.length && this.src[j] !== "'") j += ansi && this.src[j] === '\\' ? 2 : 1;
    if (j >= this.src.length) throw new ParseError('unbalanced single quote');
    const body = this.src.slice(this.i + (ansi ? 2 : 1), j);
    if (ansi && body.includes('\\')) this.cur.dynamic = true;
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
        const escapable = closing ? '$`"\\\n' : '$`\\\n';
        plain += this.literal(escapable.includes(next) ? next.replace('\n', '') : `\\${next}`);
        this.i += 2;
      } else if (c === '$' || c === '`') {
        this.expansion(true);
        plain += this.src.slice(at, this.i);
      } else {
        plain += this.literal(c);
        this.i++;
      }
    }
  }

  /** At `$` or a backtick: parses `$( )`, `$(( ))`, `` ` ` ``, `${ }`; a lone `$` is a plain character. */
  private expansion(quoted: boolean): void {
    const next = this.src[this.i + 1];
    if (this.src[this.i] === '`') this.backquoted(quoted);
    else if (next === '(' && this.src[this.i + 2] === '(' && this.arithmetic(this.i + 3)) return;
    else if (next === '(') {
      this.i += 2;
      this.substitution(')');
    } else if (next === '{') this.parameter(quoted);
    else {
      if (next !== undefined && /[A-Za-z0-9_@*#?$!-]/.test(next)) this.cur.dynamic = true;
      this.i++;
    }
    this.cur.literal += ' ';
  }

  /** A command list run in a subshell whose output (or file name) becomes text: `$( )`, `<( )`, `>( )`. */
  protected substitution(end: ')'): void {
    this.cur.dynamic = true;
    this.substitutions++;
    this.sequence(end);
    this.closeSubstitution();
    this.substitutions--;
  }

  /** Called at the `)` of a substitution, before leaving it. */
  protected closeSubstitution(): void {}

  /**
   * `$(( ... ))` or `(( ... ))` from `from` (after the parentheses): arithmetic, in which only
   * substitutions run. Returns false, consuming nothing, when the parentheses do not close as `))`:
   * then bash reads nested subshells instead.
   */
  protected arithmetic(from: number): boolean {
    const start = this.i;
    this.i = from;
    for (let depth = 0; ; ) {
      const c = this.src[this.i];
      if (c === undefined || (c === ')' && depth === 0 && this.src[this.i + 1] !== ')')) {
        this.i = start;
        return false;
      }
      if (c === ')' && depth === 0) break;
      if (c === '\\') this.i += 2;
      else if (c === "'") throw new ParseError('a quote inside arithmetic');
      else if (c === '"') {
        this.i++;
        this.doubleQuoted(true);
      } else if (c === '$' || c === '`') this.expansion(true);
      else {
        depth += c === '(' ? 1 : c === ')' ? -1 : 0;
        this.i++;
      }
    }
    this.i += 2;
    this.cur.dynamic = true;
    return true;
  }

  /** `` `...` ``: the body is cut out and parsed on its own; nested or quote-escaping backticks are refused. */
  private backquoted(quoted: boolean): void {
    let j = this.i + 1;
    let body = '';
    for (; this.src[j] !== '`'; j++) {
      if (j >= this.src.length) throw new ParseError('unbalanced backtick');
      if (this.src[j] !== '\\') body += this.src[j];
      else if (this.src[++j] === '`') throw new ParseError('nested backticks');
      else if (quoted && this.src[j] === '"') throw new ParseError('an escaped quote inside backticks');
      else body += '$\\'.includes(this.src[j] ?? '') ? this.src[j] : `\\${this.src[j] ?? ''}`;
    }
    this.i = j + 1;
    this.cur.dynamic = true;
    this.out.push(...this.nested(body));
  }

  /** `${...}`, which may hold quotes and command substitutions (`${x:-$(rm y)}`). */
  private parameter(quoted: boolean): void {
    this.i += 2;
    this.cur.dynamic = true;
    this.substitutions++;
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
    this.substitutions--;
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
