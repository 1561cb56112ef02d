import type { Io } from './output';
import type { AgentRuntime } from '../runtime';
import { selfCommand } from '../runtime/self-command';

export type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/**
 * How `run` ends on a signal. SIGINT (Ctrl-C) cancels the prompt, as in Gemini CLI, and exits 130.
 * SIGTERM and SIGHUP (a service manager, a closed terminal) only stop this process: the prompt is
 * not cancelled, its state stays with the Temporal server, and the exit code is the shell's 128 + n.
 */
export const SIGNAL_EXIT: Record<StopSignal, number> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

export interface StopWatch {
  /** Aborted on SIGTERM or SIGHUP: stop following the prompt. */
  readonly detach: AbortSignal;
  received(): StopSignal | undefined;
  /** What SIGINT does once the prompt has started (cancel it). */
  onInterrupt(fn: () => void): void;
  dispose(): void;
}

/**
 * Takes SIGINT, SIGTERM and SIGHUP from the moment `run` may start anything, so that whatever it
 * started (the embedded server, the worker) is stopped by its own `finally` instead of being left
 * behind by Node's default of dying at once.
 */
export function watchStopSignals(): StopWatch {
  const controller = new AbortController();
  let received: StopSignal | undefined;
  let interrupt: (() => void) | undefined;
  const handlers = (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((signal) => {
    const handler = () => {
      received ??= signal;
      if (signal === 'SIGINT') interrupt?.();
      else controller.abort();
    };
    process.on(signal, handler);
    return () => process.removeListener(signal, handler);
  });
  return {
    detach: controller.signal,
    received: () => received,
    onInterrupt: (fn) => (interrupt = fn),
    dispose: () => handlers.forEach((remove) => remove()),
  };
}

/** Says on stderr that the prompt was left running (not cancelled) and how it goes on. */
export function reportLeftRunning(
  io: Io,
  signal: StopSignal,
  workflowId: string,
  runtime: AgentRuntime,
  scripted: boolean,
): void {
  const lines = [`${signal}: stopped following prompt ${workflowId}; it was not cancelled.`];
  if (runtime.embedded) {
    lines.push(
      "The embedded Temporal server and the worker are stopped; the prompt stays in the server's database and " +
        `goes on at the next \`${selfCommand()} server\` (or \`run\`).`,
    );
  } else {
    lines.push(`It goes on while a worker polls task queue ${runtime.taskQueue} (\`${selfCommand()} worker\`).`);
  }
  if (scripted)
    lines.push(
      `Its model answers come from a script: DURABLE_AGENT_TASK_QUEUE=${runtime.taskQueue} ${selfCommand()} server ` +
        `--fake-responses FILE serves it.`,
    );
  lines.push(`Follow it with: ${selfCommand()} watch ${workflowId}`);
  io.stderr.write(`${lines.join('\n')}\n`);
}
