/**
 * The command level of the shell splitter: from the words of one simple command to the commands
 * it runs. Scripts given to `bash -c` and `eval` are split in turn; wrappers that run their
 * arguments as a command (`env X=1 cmd`, `exec`, `nice`, `timeout 5`...) report both themselves and
 * the command they wrap. Anything whose meaning is only known when it runs (a computed command
 * name, a builtin that redefines names) is refused.
 */

import { ParseError, type ShellCommand, type Word } from './shell-scan';

const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;
/** Builtins that change what a later word means or run text later: too dynamic to follow. */
const REFUSED = new Set(['alias', 'trap', 'enable', 'hash', 'source', '.', 'complete', 'bind', 'fc', 'shopt']);
/** Builtins whose arguments may be assignments, stored for later. */
const DECLARATIONS = new Set(['export', 'declare', 'typeset', 'local', 'readonly', 'let']);
/** Commands that run their arguments as a command; the value lists the options that take a value. */
const WRAPPERS: Record<string, string[]> = {
  env: ['-u', '--unset', '-C', '--chdir'],
  exec: ['-a'],
  command: [],
  builtin: [],
  nice: ['-n', '--adjustment'],
  nohup: [],
  time: ['-f', '--format', '-o', '--output'],
  timeout: ['-s', '--signal', '-k', '--kill-after'],
  stdbuf: ['-i', '-o', '-e'],
  setsid: [],
  xargs: ['-a', '-d', '-E', '-I', '-L', '-n', '-P', '-s', '--arg-file', '--delimiter', '--max-args'],
};
/** Wrappers whose first operand is not the command (`timeout 5 cmd`). */
const FIRST_OPERAND_SKIPPED = new Set(['timeout']);

/** Splits `bash -c` and `eval` scripts with `split`, which throws `ParseError` when it cannot. */
export type ScriptSplitter = (script: string) => ShellCommand[];

export function simpleCommands(
  text: string,
  words: Word[],
  redirected: boolean,
  split: ScriptSplitter,
): ShellCommand[] {
  const k = words.findIndex((w) => !ASSIGNMENT.test(w.raw));
  words.slice(0, k < 0 ? words.length : k).forEach(refuseStoredCode);
  if (k < 0) return [{ text, root: '', normalized: text, hasRedirection: redirected, prefix: '' }];
  return named(text, words[k], words.slice(k + 1), redirected, split);
}

function named(text: string, name: Word, args: Word[], redirected: boolean, split: ScriptSplitter): ShellCommand[] {
  const root = commandName(name);
  const inherit = (inner: ShellCommand[]) =>
    inner.map((c) => ({ ...c, hasRedirection: c.hasRedirection || redirected }));
  if (SHELLS.has(root)) {
    const script = wrappedScript(args);
    if (script !== undefined) return inherit(split(script));
  }
  if (root === 'eval') {
    if (args.some((a) => a.dynamic)) throw new ParseError('eval of text known only when it runs');
    return inherit(split(args.map((a) => a.plain).join(' ')));
  }
  if (REFUSED.has(root)) throw new ParseError(`"${root}" changes how later commands are read`);
  if (DECLARATIONS.has(root)) args.forEach(refuseStoredCode);
  const normalized = [root, ...args.map((w) => w.raw)].join(' ');
  const prefix = args.length > 0 ? `${root} ${args[0].raw}` : root;
  const self: ShellCommand = { text, root, normalized, hasRedirection: redirected, prefix };
  if (root === 'find') {
    const actions = findActions(args).map((a) => named(a.map((w) => w.raw).join(' '), a[0], a.slice(1), false, split));
    return [self, ...actions.flat()];
  }
  const options = WRAPPERS[root];
  if (options === undefined) return [self];
  const inner = wrappedCommand(root, args, options);
  if (inner.length === 0) return [self];
  const rest = inner.findIndex((w) => !ASSIGNMENT.test(w.raw));
  inner.slice(0, rest < 0 ? inner.length : rest).forEach(refuseStoredCode);
  if (rest < 0) return [self];
  const innerText = inner.map((w) => w.raw).join(' ');
  return [self, ...named(innerText, inner[rest], inner.slice(rest + 1), redirected, split)];
}

/** The commands of `find ... -exec CMD ARGS ;` (also `-execdir`, `-ok`, `-okdir`, ended by `;` or `+`). */
function findActions(args: Word[]): Word[][] {
  const actions: Word[][] = [];
  for (let k = 0; k < args.length; k++) {
    if (!/^-(exec|execdir|ok|okdir)$/.test(args[k].plain)) continue;
    const end = args.findIndex((w, j) => j > k && (w.plain === ';' || w.plain === '+'));
    const action = args.slice(k + 1, end < 0 ? args.length : end);
    if (action.length > 0) actions.push(action);
    k = end < 0 ? args.length : end;
  }
  return actions;
}

/** The command name as bash looks it up: path stripped; refused when only known at run time. */
function commandName(word: Word): string {
  const name = word.plain;
  if (name === '[' || name === '[[') return name;
  if (word.dynamic || /[*?[\]{}]/.test(name)) {
    throw new ParseError(`the command name "${word.raw}" is computed when it runs`);
  }
  return name.slice(name.lastIndexOf('/') + 1);
}

/** `x='$(rm y)'` stores code that a later `eval`, arithmetic or `PS4` would run. */
function refuseStoredCode(word: Word): void {
  if (word.literalCode) throw new ParseError(`"${word.raw}" stores a substitution for later`);
}

/** The words after a wrapper's own options (and `timeout`'s duration). `env -S` splits a string: refused. */
function wrappedCommand(root: string, args: Word[], withValue: string[]): Word[] {
  let k = 0;
  while (k < args.length && args[k].plain.startsWith('-') && args[k].plain !== '-') {
    const option = args[k].plain;
    if (args[k].dynamic) throw new ParseError(`"${root}" with an option known only when it runs`);
    const splitsString = root === 'env' && /^(-[a-zA-Z]*S|--split-string)/.test(option);
    if (splitsString) throw new ParseError('"env -S" is not supported');
    k += withValue.includes(option) ? 2 : 1;
    if (option === '--') break;
  }
  if (root === 'env' && args[k]?.plain === '-') k++;
  if (FIRST_OPERAND_SKIPPED.has(root)) k++;
  return args.slice(k);
}

/**
 * The script of `bash -c SCRIPT` (options may precede `-c`: `sh -ec`, `bash -o errexit -c`), or
 * undefined when the shell runs something else, such as a script file, which is then checked as
 * `bash`. A script known only when it runs is refused.
 */
function wrappedScript(args: Word[]): string | undefined {
  for (let k = 0; k < args.length; k++) {
    const option = args[k].plain;
    if (args[k].dynamic) throw new ParseError('a shell option known only when it runs');
    if (/^[-+][A-Za-z]*c[A-Za-z]*$/.test(option) && option.startsWith('-')) {
      const script = args[k + 1];
      if (script?.dynamic) throw new ParseError('a "bash -c" script known only when it runs');
      return script?.plain;
    }
    if (/^[-+][oO]$/.test(option)) k++;
    else if (!option.startsWith('-') && !option.startsWith('+')) return undefined;
  }
  return undefined;
}
