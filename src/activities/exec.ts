import { headTailSizes, joinTruncated } from '../tools/truncate';
import type { ExecOptions, ExecResult, ToolDeps } from '../tools/types';
import { commandEnvironment } from '../config/env';
import { defaultProcessRunner, type ProcessRunner } from './spawner/runner';

/** After SIGTERM, the process group gets this long before SIGKILL. */
const KILL_GRACE_MS = 2000;
/** After the shell exits, how long to wait for pipes held open by processes it left running. */
const PIPE_DRAIN_MS = 250;

/**
 * Runs commands with `bash -c`, each in its own process group so a timeout kills all of it, through
 * the spawner (no ancestor of the command holds the worker's secrets). `env` is the command's whole
 * environment, already without secrets.
 */
export function createExec(
  env: NodeJS.ProcessEnv = commandEnvironment(),
  runner: ProcessRunner = defaultProcessRunner(),
): ToolDeps['exec'] {
  return (options) => runCommand(options, env, runner);
}

async function runCommand(options: ExecOptions, env: NodeJS.ProcessEnv, runner: ProcessRunner): Promise<ExecResult> {
  const output = createOutputBuffer(options.maxOutputChars);
  const request = {
    argv: ['bash', '-c', options.command],
    cwd: options.cwd,
    env,
    timeoutMs: options.timeoutMs,
    killGraceMs: KILL_GRACE_MS,
    drainMs: PIPE_DRAIN_MS,
    record: options.record,
  };
  const outcome = await runner.run(request, { onOutput: (_fd, data) => output.append(data), signal: options.signal });
  if (outcome.error) throw new Error(outcome.error);
  const { exitCode, signal, timedOut, aborted, pid } = outcome;
  return { output: output.text(), exitCode, signal, timedOut, aborted, pid };
}

/** A recorded command's result as `exec` would have returned it (its output cut the same way). */
export function recordedResult(recorded: ExecResult, maxOutputChars: number): ExecResult {
  const output = createOutputBuffer(maxOutputChars);
  output.append(recorded.output);
  return { ...recorded, output: output.text() };
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
