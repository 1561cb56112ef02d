import { spawn } from 'node:child_process';
import { headTailSizes, joinTruncated } from '../tools/truncate';
import type { ExecOptions, ExecResult, ToolDeps } from '../tools/types';

/** After SIGTERM, the process group gets this long before SIGKILL. */
const KILL_GRACE_MS = 2000;
/** After the shell exits, how long to wait for pipes held open by processes it left running. */
const PIPE_DRAIN_MS = 250;
/** Environment variables withheld from commands the model runs (invariant 8: secrets stay out). */
const SECRET_ENV_NAME = /API_KEY|SECRET|PASSWORD|(^|_)TOKEN$/i;

/** Runs commands with `bash -c`, each in its own process group so a timeout kills all of it. */
export function createExec(env: NodeJS.ProcessEnv = withoutSecrets(process.env)): ToolDeps['exec'] {
  return (options) => runCommand(options, env);
}

/** The environment without variables that look like secrets (API keys, tokens, passwords). */
export function withoutSecrets(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !SECRET_ENV_NAME.test(name)));
}

function runCommand(options: ExecOptions, env: NodeJS.ProcessEnv): Promise<ExecResult> {
  return new Promise((resolve, reject) => {
    const stdio: ['ignore', 'pipe', 'pipe'] = ['ignore', 'pipe', 'pipe'];
    const child = spawn('bash', ['-c', options.command], { cwd: options.cwd, env, detached: true, stdio });
    const output = createOutputBuffer(options.maxOutputChars);
    const result: ExecResult = { output: '', exitCode: null, signal: null, timedOut: false, aborted: false, pid: child.pid };
    const killGroup = groupKiller(child.pid);
    const timers: NodeJS.Timeout[] = [setTimeout(() => ((result.timedOut = true), killGroup()), options.timeoutMs)];
    const onAbort = () => ((result.aborted = true), killGroup());
    let done = false;
    const settle = (error?: Error) => {
      if (done) return;
      done = true;
      timers.forEach(clearTimeout);
      options.signal?.removeEventListener('abort', onAbort);
      child.stdout.destroy();
      child.stderr.destroy();
      if (error) reject(error);
      else resolve({ ...result, output: output.text() });
    };
    for (const stream of [child.stdout, child.stderr]) stream.setEncoding('utf8').on('data', output.append);
    child.on('error', settle);
    child.on('exit', (code, signal) => {
      Object.assign(result, { exitCode: code, signal });
      timers.push(setTimeout(() => settle(), PIPE_DRAIN_MS));
    });
    child.on('close', () => settle());
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** SIGTERM to the whole group, then SIGKILL after a grace period for whatever is left. */
function groupKiller(pid: number | undefined): () => void {
  let started = false;
  const send = (signal: NodeJS.Signals) => {
    try {
      if (pid !== undefined) process.kill(-pid, signal);
    } catch {
      // The group is already gone.
    }
  };
  return () => {
    if (started) return;
    started = true;
    send('SIGTERM');
    setTimeout(() => send('SIGKILL'), KILL_GRACE_MS).unref();
  };
}

/** Keeps the first 20% and a rolling last 80% of `maxChars`, counting what falls between. */
function createOutputBuffer(maxChars: number): { append: (chunk: string) => void; text: () => string } {
  const limited = Number.isFinite(maxChars);
  const sizes = limited ? headTailSizes(Math.max(0, maxChars)) : { head: Infinity, tail: Infinity };
  const { head: headMax, tail: tailMax } = sizes;
  const lastOf = (text: string, count = tailMax) => (count > 0 ? text.slice(-count) : '');
  /** Until the end, more than the tail is kept: output within `maxChars` must come back whole. */
  const buffered = Math.max(tailMax, maxChars);
  let head = '';
  let tail = '';
  let total = 0;
  return {
    append(chunk) {
      total += chunk.length;
      const room = headMax - head.length;
      if (room > 0) head += chunk.slice(0, room);
      const rest = room > 0 ? chunk.slice(room) : chunk;
      if (rest === '') return;
      tail += rest;
      if (tail.length > 2 * buffered) tail = lastOf(tail, buffered);
    },
    text() {
      if (!limited || total <= maxChars) return head + tail;
      const kept = lastOf(tail);
      return joinTruncated(head, kept, total - head.length - kept.length);
    },
  };
}
