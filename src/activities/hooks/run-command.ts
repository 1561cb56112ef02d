import { spawn } from 'node:child_process';
import { HOOK_KILL_GRACE_MS } from '../../core/hooks/types';

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
 * Runs one command hook through `bash -c` in a process group of its own, with the hook input on
 * stdin (rc files are skipped: stdin is a socket, which bash takes for a remote shell). At the timeout (or when the activity is cancelled) the group gets SIGTERM, then SIGKILL
 * after the grace period, so a hook that ignores SIGTERM cannot hold the agent.
 */
export function runHookProcess(options: HookProcessOptions): Promise<HookProcessResult> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['--norc', '--noprofile', '-c', options.command], { cwd: options.cwd, env: options.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    const result: HookProcessResult = { exitCode: null, signal: null, stdout: '', stderr: '', timedOut: false, truncated: false };
    const stop = groupStopper(child.pid, options.killGraceMs ?? HOOK_KILL_GRACE_MS);
    const timer = setTimeout(() => ((result.timedOut = true), stop.start()), options.timeoutMs);
    const onAbort = () => stop.start();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const collect = (key: 'stdout' | 'stderr') => (chunk: string) => {
      const room = HOOK_OUTPUT_LIMIT - result[key].length;
      if (chunk.length > room) result.truncated = true;
      result[key] += chunk.slice(0, Math.max(0, room));
    };
    child.stdout.setEncoding('utf8').on('data', collect('stdout'));
    child.stderr.setEncoding('utf8').on('data', collect('stderr'));
    // A hook that never reads its stdin must not fail the run with EPIPE.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.stdin);
    let done = false;
    const settle = (error?: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stop.cancel();
      options.signal?.removeEventListener('abort', onAbort);
      resolve(error ? { ...result, error: error.message } : result);
    };
    child.on('error', settle);
    child.on('close', (code, signal) => {
      Object.assign(result, { exitCode: code, signal });
      settle();
    });
    if (options.signal?.aborted) onAbort();
  });
}

/** SIGTERM to the group, SIGKILL after the grace period for whatever is left. */
function groupStopper(pid: number | undefined, graceMs: number) {
  let grace: NodeJS.Timeout | undefined;
  const send = (signal: NodeJS.Signals) => {
    try {
      if (pid !== undefined) process.kill(-pid, signal);
    } catch {
      // The group is gone already.
    }
  };
  return {
    start() {
      if (grace) return;
      send('SIGTERM');
      grace = setTimeout(() => send('SIGKILL'), graceMs);
    },
    cancel() {
      // The hook exited; a leftover member of its group still gets its SIGKILL.
      if (grace) grace.unref();
    },
  };
}
