import { HOOK_KILL_GRACE_MS } from '../../core/hooks/types';
import { defaultProcessRunner, type ProcessRunner } from '../spawner/runner';

/** Output beyond this is dropped (a hook's answer enters workflow history; invariant 4). */
export const HOOK_OUTPUT_LIMIT = 64 * 1024;

export interface HookProcessOptions {
  command: string;
  /** Written to the hook's stdin, then stdin is closed. */
  stdin: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** SIGTERM to SIGKILL (Gemini CLI: 5 s). */
  killGraceMs?: number;
  signal?: AbortSignal;
  /** Starts the process (default: the process's shared spawner). */
  runner?: ProcessRunner;
}

export interface HookProcessResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Output went over HOOK_OUTPUT_LIMIT and was cut. */
  truncated: boolean;
  /** Could not start at all (spawn error). */
  error?: string;
}

/**
 * Runs one command hook through `bash -c` in a process group of its own, started by the spawner
 * like every shell command, with the hook input on stdin (rc files are skipped: stdin is a socket,
 * which bash takes for a remote shell). At the timeout (or when the activity is cancelled) the
 * group gets SIGTERM, then SIGKILL after the grace period, so a hook that ignores SIGTERM cannot
 * hold the agent.
 */
export async function runHookProcess(options: HookProcessOptions): Promise<HookProcessResult> {
  const result: HookProcessResult = {
    exitCode: null,
    signal: null,
    stdout: '',
    stderr: '',
    timedOut: false,
    truncated: false,
  };
  const collect = (key: 'stdout' | 'stderr', chunk: string) => {
    const room = HOOK_OUTPUT_LIMIT - result[key].length;
    if (chunk.length > room) result.truncated = true;
    result[key] += chunk.slice(0, Math.max(0, room));
  };
  const runner = options.runner ?? defaultProcessRunner();
  const outcome = await runner.run(
    {
      argv: ['bash', '--norc', '--noprofile', '-c', options.command],
      cwd: options.cwd,
      env: options.env,
      stdin: options.stdin,
      timeoutMs: options.timeoutMs,
      killGraceMs: options.killGraceMs ?? HOOK_KILL_GRACE_MS,
    },
    { onOutput: (fd, data) => collect(fd === 1 ? 'stdout' : 'stderr', data), signal: options.signal },
  );
  Object.assign(result, { exitCode: outcome.exitCode, signal: outcome.signal, timedOut: outcome.timedOut });
  return outcome.error ? { ...result, error: outcome.error } : result;
}
