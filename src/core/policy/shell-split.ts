/**
 * Splits a bash command line into the simple commands it would run, so that policy can check each
 * one: a denied command must not hide after an allowed one. A small hand-written parser, pure and
 * workflow-safe. When in doubt it fails (`ok: false`) or reports more commands than bash would run
 * (the body of `$(( ))` arithmetic, for instance), never fewer.
 */

import { ParseError, ShellScanner, WORD_END, type ShellCommand, type Word } from './shell-scan';

export type { ShellCommand } from './shell-scan';

export type ShellSplit = { ok: true; commands: ShellCommand[] } | { ok: false; reason: string };

interface Heredoc {
  delimiter: string;
  stripTabs: boolean;
  expands: boolean;
}

const MAX_NESTING = 64;
/** Words that only introduce the command after them (`if git diff; then rm x; fi`). */
const RESERVED = new Set(['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', '!', 'time']);
const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;
const REDIRECT = /(?:\d+|&)?(>>|>&|>\||<<<|<<-|<<|<&|<>|>|<)/y;
const SEPARATOR = /&&|\|\||\|&|;;|[;&|\n]/y;

export function splitShellCommand(command: string): ShellSplit {
  try {
    return { ok: true, commands: new Parser(command, 0).parseAll() };
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

class Parser extends ShellScanner {
  private readonly heredocs: Heredoc[] = [];

  protected nested(text: string): ShellCommand[] {
    return new Parser(text, this.level + 1).parseAll();
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
    for (;;) {
      this.skipBlanks();
      const c = this.src[this.i];
      if (c === undefined || c === '\n' || c === ';' || c === '|' || c === ')') break;
      if (c === '&' && this.src[this.i + 1] !== '>') break;
      if (c === '#') {
        const newline = this.src.indexOf('\n', this.i);
        this.i = newline < 0 ? this.src.length : newline;
        break;
      }
      if (c === '(') {
        if (words.length > 0 || grouped) throw new ParseError('unexpected "("');
        this.i++;
        this.sequence(')');
        grouped = true;
      } else {
        const redirection = this.redirection();
        if (redirection !== undefined) redirected ||= redirection;
        else {
          const word = this.word();
          const atStart = words.length === 0 && !grouped;
          if (atStart && RESERVED.has(word.raw)) start = this.i;
          else if (atStart && word.raw === '}' && end === '}') return true;
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

  private emit(text: string, words: Word[], redirected: boolean, grouped: boolean, first: number): void {
    if (grouped) {
      if (words.length > 0) throw new ParseError(`unexpected "${words[0].raw}" after a group`);
      if (redirected) this.out.slice(first).forEach((c) => (c.hasRedirection = true));
      return;
    }
    if (words.length === 0 && !redirected) return;
    const k = words.findIndex((w) => !ASSIGNMENT.test(w.raw));
    const name = k < 0 ? '' : words[k].plain;
    const root = /[$`]/.test(name) ? name : name.slice(name.lastIndexOf('/') + 1);
    const args = k < 0 ? [] : words.slice(k + 1);
    const script = SHELLS.has(root) ? wrappedScript(args) : undefined;
    if (script !== undefined) {
      const inner = this.nested(script);
      inner.forEach((c) => (c.hasRedirection ||= redirected));
      this.out.push(...inner);
      return;
    }
    const normalized = k < 0 ? text : [root, ...args.map((w) => w.raw)].join(' ');
    this.out.splice(first, 0, { text, root, normalized, hasRedirection: redirected });
  }

  /**
   * At a redirection operator: reads it and its target and returns whether it touches a file.
   * Process substitution, heredocs, here-strings and fd duplication return false. Not at one:
   * undefined.
   */
  private redirection(): boolean | undefined {
    if ((this.src[this.i] === '<' || this.src[this.i] === '>') && this.src[this.i + 1] === '(') {
      this.i += 2;
      this.sequence(')');
      return false;
    }
    REDIRECT.lastIndex = this.i;
    const match = REDIRECT.exec(this.src);
    if (!match) return undefined;
    this.i += match[0].length;
    this.skipBlanks();
    const c = this.src[this.i];
    if (c === undefined || WORD_END.has(c)) throw new ParseError(`missing target after "${match[0]}"`);
    const target = this.word();
    const op = match[1];
    if (op === '>&' || op === '<&') return !/^(\d+-?|-)$/.test(target.raw);
    if (op === '<<' || op === '<<-') {
      this.heredocs.push({ delimiter: target.plain, stripTabs: op === '<<-', expands: target.raw === target.plain });
      return false;
    }
    return op !== '<<<';
  }


  /** After a newline: skips pending heredoc bodies, parsing substitutions in unquoted ones. */
  private readHeredocs(): void {
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
      const body = new Parser(this.src.slice(bodyStart, bodyEnd), this.level + 1);
      body.doubleQuoted(false);
      this.out.push(...body.out);
    }
  }
}

/**
 * The script of `bash -c SCRIPT` (options may precede `-c`: `sh -ec`, `bash -l -c`), or undefined
 * when the shell runs something else, such as a script file, which is then checked as `bash`.
 */
function wrappedScript(args: Word[]): string | undefined {
  for (let k = 0; k < args.length; k++) {
    const option = args[k].plain;
    if (/^-[A-Za-z]*c[A-Za-z]*$/.test(option)) return args[k + 1]?.plain;
    if (!option.startsWith('-') && !option.startsWith('+')) return undefined;
  }
  return undefined;
}
