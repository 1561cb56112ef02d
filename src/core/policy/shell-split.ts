/**
 * Splits a bash command line into the simple commands it would run, so that policy can check each
 * one: a denied command must not hide after an allowed one. A small hand-written parser, pure and
 * workflow-safe, tested against bash itself (test/shell-corpus.test.ts). When in doubt it fails
 * (`ok: false`, which policy turns into a question) or reports more commands than bash would run,
 * never fewer.
 */

import { simpleCommands } from './shell-commands';
import { ParseError, ShellScanner, WORD_END, type ShellCommand, type Word } from './shell-scan';

export type { ShellCommand } from './shell-scan';

export type ShellSplit = { ok: true; commands: ShellCommand[] } | { ok: false; reason: string };

interface Heredoc {
  /** How many substitutions enclose its operator: its body must be read at that depth. */
  depth: number;
  delimiter: string;
  stripTabs: boolean;
  expands: boolean;
}

const MAX_NESTING = 64;
/** Words that only introduce the command after them (`if git diff; then rm x; fi`). */
const RESERVED = new Set(['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', '!', 'time']);
/** Compound commands this parser does not follow: they ask. */
const REFUSED = new Set(['case', 'esac', 'select', 'function', 'coproc']);
const REDIRECT = /(?:\d+|&)?(>>|>&|>\||<<<|<<-|<<|<&|<>|>|<)/y;
const SEPARATOR = /&&|\|\||\|&|;;|[;&|\n]/y;

export function splitShellCommand(command: string): ShellSplit {
  try {
    return { ok: true, commands: new Parser(command, 0, false).parseAll() };
  } catch (err) {
    if (err instanceof ParseError) return { ok: false, reason: err.message };
    throw err;
  }
}

/** Distinct command names of a command line, in order; empty when it cannot be parsed. */
export function rootCommands(command: string): string[] {
  const split = splitShellCommand(command);
  if (!split.ok) return [];
  return [...new Set(split.commands.map((c) => c.root).filter((r) => r !== ''))];
}

/**
 * What `proceed_always` on a command line allows: each command's name and first argument
 * (`git status -s && npm test` → `git status`, `npm test`); empty when it cannot be parsed.
 */
export function commandPrefixes(command: string): string[] {
  const split = splitShellCommand(command);
  if (!split.ok) return [];
  return [...new Set(split.commands.map((c) => c.prefix).filter((p) => p !== ''))];
}

class Parser extends ShellScanner {
  private readonly heredocs: Heredoc[] = [];

  /**
   * `inSubstitution`: the text is the body of a backtick substitution or of a here-document, where
   * bash's reading of a here-document differs from the line-based one here: refused.
   */
  constructor(
    src: string,
    level: number,
    private readonly inSubstitution: boolean,
  ) {
    super(src, level);
    if (inSubstitution) this.substitutions = 1;
  }

  /** A here-document opened inside `$( )` must end inside it (`$(cat <<EOF)` is refused). */
  protected override closeSubstitution(): void {
    const open = this.heredocs.some((doc) => doc.depth === this.substitutions);
    if (open) throw new ParseError('a here-document left open in a substitution');
  }

  protected nested(text: string): ShellCommand[] {
    return new Parser(text, this.level + 1, true).parseAll();
  }

  /** A script run by `bash -c` or `eval`: a fresh top level. */
  private script(text: string): ShellCommand[] {
    return new Parser(text, this.level + 1, false).parseAll();
  }

  parseAll(): ShellCommand[] {
    this.sequence(null);
    return this.out;
  }

  protected sequence(end: ')' | '}' | null): void {
    if (++this.level > MAX_NESTING) throw new ParseError('nested too deeply');
    for (;;) {
      if (this.command(end)) break;
      const c = this.src[this.i];
      if (c === undefined) {
        if (end) throw new ParseError(`missing "${end}"`);
        break;
      }
      if (c === ')') {
        if (end !== ')') throw new ParseError('unexpected ")"');
        this.i++;
        break;
      }
      SEPARATOR.lastIndex = this.i;
      const sep = SEPARATOR.exec(this.src);
      if (!sep) throw new ParseError(`unexpected "${c}"`);
      this.i += sep[0].length;
      if (sep[0] === '\n') this.readHeredocs();
    }
    this.level--;
  }

  /** One simple command, subshell or group, up to a separator. Returns true at a group's `}`. */
  private command(end: ')' | '}' | null): boolean {
    const first = this.out.length;
    const words: Word[] = [];
    let start = this.i;
    let stop = this.i;
    let redirected = false;
    let grouped = false;
    let reserved = '';
    for (;;) {
      this.skipBlanks();
      const c = this.src[this.i];
      if (c === undefined || c === '\n' || c === ';' || c === '|' || c === ')') break;
      if (c === '&' && this.src[this.i + 1] !== '>') break;
      const atStart = words.length === 0 && !grouped;
      if (c === '#') {
        const newline = this.src.indexOf('\n', this.i);
        this.i = newline < 0 ? this.src.length : newline;
        break;
      }
      if (c === '(') {
        this.subshell(atStart);
        grouped = true;
      } else {
        const redirection = this.redirection();
        if (redirection !== undefined) redirected ||= redirection;
        else {
          const word = this.word();
          if (atStart && REFUSED.has(word.raw)) throw new ParseError(`"${word.raw}" is not supported`);
          if (atStart && (RESERVED.has(word.raw) || (reserved === 'time' && word.raw === '-p'))) {
            start = this.i;
            reserved = word.raw;
          } else if (atStart && word.raw === '}' && end === '}') return true;
          else if (atStart && word.raw === '{') {
            this.sequence('}');
            grouped = true;
          } else words.push(word);
        }
      }
      stop = this.i;
    }
    this.emit(this.src.slice(start, stop).trim(), words, redirected, grouped, first);
    return false;
  }

  /** `( list )`, or `(( arithmetic ))`, at the start of a command. */
  private subshell(atStart: boolean): void {
    if (!atStart) throw new ParseError('unexpected "(" (a function definition?)');
    if (this.src[this.i + 1] === '(' && this.arithmetic(this.i + 2)) return;
    this.i++;
    this.sequence(')');
  }

  private emit(text: string, words: Word[], redirected: boolean, grouped: boolean, first: number): void {
    if (grouped) {
      if (words.length > 0) throw new ParseError(`unexpected "${words[0].raw}" after a group`);
      if (redirected) this.out.slice(first).forEach((c) => (c.hasRedirection = true));
      return;
    }
    if (words.length === 0 && !redirected) return;
    const commands = simpleCommands(text, words, redirected, (script) => this.script(script));
    this.out.splice(first, 0, ...commands);
  }

  /**
   * At a redirection operator: reads it and its target and returns whether it touches a file.
   * Heredocs, here-strings and fd duplication return false. Not at one (process substitution
   * `<(...)` is a word): undefined.
   */
  private redirection(): boolean | undefined {
    if ((this.src[this.i] === '<' || this.src[this.i] === '>') && this.src[this.i + 1] === '(') return undefined;
    REDIRECT.lastIndex = this.i;
    const match = REDIRECT.exec(this.src);
    if (!match) return undefined;
    this.i += match[0].length;
    this.skipBlanks();
    const c = this.src[this.i];
    const substituted = (c === '<' || c === '>') && this.src[this.i + 1] === '(';
    if (c === undefined || c === '#' || (WORD_END.has(c) && !substituted)) {
      throw new ParseError(`missing target after "${match[0]}"`);
    }
    const target = this.word();
    const op = match[1];
    if (op === '>&' || op === '<&') return !/^(\d+-?|-)$/.test(target.raw);
    if (op === '<<' || op === '<<-') {
      if (this.inSubstitution) throw new ParseError('a here-document inside backticks or a here-document');
      if (target.dynamic) throw new ParseError('a here-document delimiter with a substitution');
      const expands = target.raw === target.plain;
      this.heredocs.push({ depth: this.substitutions, delimiter: target.plain, stripTabs: op === '<<-', expands });
      return false;
    }
    return op !== '<<<';
  }

  /** After a newline: skips pending heredoc bodies, parsing substitutions in unquoted ones. */
  private readHeredocs(): void {
    const outer = this.heredocs.some((doc) => doc.depth !== this.substitutions);
    if (outer) throw new ParseError('a here-document around a substitution');
    for (const doc of this.heredocs.splice(0)) {
      const bodyStart = this.i;
      let bodyEnd = this.src.length;
      while (this.i < this.src.length) {
        const newline = this.src.indexOf('\n', this.i);
        const lineEnd = newline < 0 ? this.src.length : newline;
        const line = this.src.slice(this.i, lineEnd);
        const done = (doc.stripTabs ? line.replace(/^\t+/, '') : line) === doc.delimiter;
        if (done) bodyEnd = this.i;
        this.i = lineEnd + 1;
        if (done) break;
      }
      this.i = Math.min(this.i, this.src.length);
      if (!doc.expands) continue;
      const text = this.src.slice(bodyStart, bodyEnd);
      if (/(^|[^\\])(\\\\)*\\\n/.test(text)) throw new ParseError('a line continuation in a here-document');
      const body = new Parser(text, this.level + 1, true);
      body.doubleQuoted(false);
      this.out.push(...body.out);
    }
  }
}
