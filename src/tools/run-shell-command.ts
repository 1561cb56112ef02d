import { z } from 'zod';
import { fenceUntrusted } from '../core/untrusted';
import { resolveDirectory } from './tool-helpers';
import { DEFAULT_MAX_OUTPUT_CHARS } from './truncate';
import type { ExecResult, ActivityTool } from './types';
import { startInBackground } from './background-processes';

/**
 * Used when configuration sets no limit. Gemini CLI kills a command after 300 s without output;
 * here the same 300 s bound the whole run, so an activity's duration stays bounded.
 */
export const DEFAULT_SHELL_TIMEOUT_MS = 300_000;

/** Room for the `Output:` prefix and status lines, so the whole report fits the output limit. */
const REPORT_RESERVE = 200;

const schema = z.object({
  command: z
    .string()
    .refine((value) => value.trim() !== '', 'must not be blank')
    .describe('The command line to run with `bash -c`.'),
  description: z
    .string()
    .optional()
    .describe('Optional: one short sentence saying what the command does, shown to the user.'),
  dir_path: z
    .string()
    .optional()
    .describe('Optional: directory to run in, inside the workspace. Defaults to the workspace root.'),
  is_background: z
    .boolean()
    .optional()
    .describe(
      'Optional: run the command in the background and return at once with its PID (for servers and watchers); ' +
        'read its output later with read_background_output.',
    ),
  delay_ms: z
    .number()
    .int()
    .min(0)
    .max(60_000)
    .optional()
    .describe('Optional, with is_background: milliseconds to wait for initial output (default 200).'),
});

export const runShellCommandTool: ActivityTool<typeof schema> = {
  name: 'run_shell_command',
  kind: 'execute',
  reach: 'processes',
  description:
    'Runs a command with `bash -c` in its own process group, in dir_path or the workspace root, and ' +
    'returns its combined stdout and stderr, then the exit code when it is not 0 and the signal if ' +
    'one ended it. Commands run without a terminal (no interactive prompts) and are killed when they ' +
    'exceed the configured time limit. Long output keeps its start and end, with the middle cut.',
  parameters: schema,
  async execute(args, deps) {
    const cwd = await resolveDirectory(deps.workspace, args.dir_path);
    if (args.is_background) return startInBackground(args.command, cwd, args.delay_ms, deps);
    const timeoutMs = deps.limits?.shellTimeoutMs ?? DEFAULT_SHELL_TIMEOUT_MS;
    const result = await deps.exec({
      command: args.command,
      cwd,
      timeoutMs,
      maxOutputChars: Math.max(0, (deps.limits?.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS) - REPORT_RESERVE),
      signal: deps.signal,
    });
    const report = describeResult(result);
    if (result.timedOut) {
      const seconds = Number((timeoutMs / 1000).toFixed(1));
      const message =
        `Command timed out and was killed after ${seconds} seconds; the output so far ` + `follows.\n${report}`;
      return { ok: false, error: { kind: 'shell_timeout', message } };
    }
    if (result.aborted) {
      const message = `Command was cancelled before it finished; the output so far follows.\n${report}`;
      return { ok: false, error: { kind: 'cancelled', message } };
    }
    return { ok: true, output: report, display: args.description ?? args.command };
  },
};

/**
 * Gemini CLI's result layout: `Output:`, then `Exit Code:` (non-zero only) and `Signal:`, all inside the
 * untrusted-data fence: what a command prints is data, whoever wrote it.
 */
function describeResult(result: ExecResult): string {
  const output = result.output.replace(/\s+$/, '');
  const lines = [`Output: ${output === '' ? '(empty)' : output}`];
  if (result.exitCode !== null && result.exitCode !== 0) lines.push(`Exit Code: ${result.exitCode}`);
  if (result.signal) lines.push(`Signal: ${result.signal}`);
  return fenceUntrusted('shell', lines.join('\n'));
}
