import { randomBytes } from 'node:crypto';
import * as path from 'node:path';

/** Gemini CLI's flags for its editor mode: an editor set up for it starts `durable-agent acp` with one word changed. */
const ACP_FLAGS = ['--acp', '--experimental-acp'];

/**
 * `durable-agent -p "..." -o json -y`, as a script written for `gemini` calls it: options before any
 * command mean `run`. Help and version stay the program's; anything else goes to `run`'s checks.
 * Nothing at all opens a conversation on a terminal, as `gemini` does, and reads the prompt from a pipe.
 */
export function geminiStyle(argv: string[], stdinIsTty = !!process.stdin.isTTY): string[] {
  const acp = argv.findIndex((arg, i) => i >= 2 && ACP_FLAGS.includes(arg));
  if (acp >= 0) return [...argv.slice(0, 2), 'acp', ...argv.slice(2).filter((arg) => !ACP_FLAGS.includes(arg))];
  const first = argv[2];
  if (first === undefined)
    return [...argv, ...(stdinIsTty ? ['chat', newSessionName(process.cwd(), new Date())] : ['run'])];
  if (!first.startsWith('-') || ['-h', '--help', '-v', '-V', '--version'].includes(first)) return argv;
  return [...argv.slice(0, 2), 'run', ...argv.slice(2)];
}

/** A new session for bare `durable-agent`: named after the directory, unique by the minute and a few bits. */
export function newSessionName(dir: string, now: Date): string {
  const base = path
    .basename(dir)
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 60);
  const stamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 12);
  return `${base || 'chat'}-${stamp}-${randomBytes(2).toString('hex')}`;
}

export const HELP_AFTER = `
Options before any command mean \`run\`: durable-agent -p "fix the tests" -o json -y
With no arguments at all, durable-agent opens a chat on a new session named after the current
directory (or, with a pipe on standard input, runs it as the prompt).
`;
