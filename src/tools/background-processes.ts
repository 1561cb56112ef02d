import { z } from 'zod';
import { fenceUntrusted } from '../core/untrusted';
import type { ActivityTool, BackgroundProcess, ToolDeps, ToolResult } from './types';

/** Gemini CLI waits this long for a background command's first output. */
export const DEFAULT_BACKGROUND_DELAY_MS = 200;

/** `run_shell_command` with `is_background`: starts the command on this worker and answers with its PID. */
export async function startInBackground(
  command: string,
  cwd: string,
  delayMs: number | undefined,
  deps: ToolDeps,
): Promise<ToolResult> {
  if (!deps.background)
    return { ok: false, error: { kind: 'execution_failed', message: 'Background commands cannot run here.' } };
  const root = deps.workspace.root;
  const pid = await deps.background.start(command, cwd, root);
  await new Promise((resolve) => setTimeout(resolve, delayMs ?? DEFAULT_BACKGROUND_DELAY_MS));
  const seen = await deps.background.read(pid, root);
  const initial = seen?.output?.replace(/\s+$/, '') || '(none yet)';
  if (seen?.process.status === 'exited')
    return {
      ok: true,
      output: fenceUntrusted('shell', `Command finished. PID: ${pid}. ${state(seen.process)}\nOutput: ${initial}`),
    };
  return {
    ok: true,
    output: fenceUntrusted('shell', `Command is running in background. PID: ${pid}. Initial output: ${initial}`),
  };
}

const listSchema = z.object({});

export const listBackgroundProcessesTool: ActivityTool<typeof listSchema> = {
  name: 'list_background_processes',
  kind: 'read',
  reach: 'processes',
  description:
    'Lists the background shell commands started in this workspace (run_shell_command with is_background): ' +
    'PID, state and command. A process whose worker stopped is listed as lost; it is not restarted.',
  parameters: listSchema,
  async execute(_args, deps) {
    const all = (await deps.background?.list(deps.workspace.root)) ?? [];
    if (all.length === 0) return { ok: true, output: 'No background processes.' };
    return { ok: true, output: all.map((p) => `PID ${p.pid}: ${state(p)} - ${p.command}`).join('\n') };
  },
};

const readSchema = z.object({
  pid: z.number().int().positive().describe('The PID run_shell_command returned.'),
  lines: z.number().int().positive().max(10_000).optional().describe('Optional: last lines to show (default 100).'),
  delay_ms: z.number().int().min(0).max(60_000).optional().describe('Optional: milliseconds to wait first.'),
});

export const readBackgroundOutputTool: ActivityTool<typeof readSchema> = {
  name: 'read_background_output',
  kind: 'read',
  reach: 'processes',
  description: 'Shows the last lines of output of a background shell command, by PID, and whether it still runs.',
  parameters: readSchema,
  async execute(args, deps) {
    if (args.delay_ms) await new Promise((resolve) => setTimeout(resolve, args.delay_ms));
    const seen = await deps.background?.read(args.pid, deps.workspace.root);
    if (!seen)
      return {
        ok: false,
        error: { kind: 'invalid_tool_params', message: `No background process with PID ${args.pid}.` },
      };
    if (seen.output === undefined)
      return { ok: false, error: { kind: 'execution_failed', message: state(seen.process) } };
    const tail = seen.output
      .replace(/\s+$/, '')
      .split('\n')
      .slice(-(args.lines ?? 100))
      .join('\n');
    return {
      ok: true,
      output: fenceUntrusted('shell', `PID ${args.pid}: ${state(seen.process)}\nOutput: ${tail || '(empty)'}`),
    };
  },
};

function state(p: BackgroundProcess): string {
  if (p.status === 'running') return 'running';
  if (p.status === 'lost')
    return (
      'lost: the worker that ran it has stopped, so its state and any further output are unknown; it was not ' +
      'restarted. Start it again if it is still needed.'
    );
  if (p.status === 'elsewhere') return 'running on another worker of this host, which alone can read it';
  return p.signal ? `exited (signal ${p.signal})` : `exited with code ${p.exitCode}`;
}
