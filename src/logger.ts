import pino from 'pino';
import type { LogLevel } from '@temporalio/worker';
import { metricsTelemetry } from './worker/metrics';

export type Logger = pino.Logger;

/** The first logger of the process and its level, for Temporal's runtime once one is needed. */
let runtimeLogger: { logger: Logger; level: string } | undefined;
let runtimeInstalled = false;
/** Set by the spare process (cli/spare.ts): its fd 2 is not the command's stderr. */
let logDestination: { write(line: string): unknown } | undefined;

export function setLogDestination(destination: { write(line: string): unknown }): void {
  logDestination = destination;
}

/**
 * The process's one pino logger, writing JSON lines to stderr (stdout belongs to command output).
 * Prompts and model output are never logged, only sizes and names. It also becomes Temporal's
 * runtime logger when the process needs a runtime (`installTemporalRuntime`).
 */
export function createLogger(level: string): Logger {
  const logger = pino({ level, base: undefined }, logDestination ?? pino.destination(2));
  runtimeLogger ??= { logger, level };
  return logger;
}

/**
 * Installs Temporal's runtime with the process's logger: call before the first worker or native
 * connection exists. Commands that only use a client never load `@temporalio/worker` (a third of
 * the CLI's start-up time, webpack included); without a logger created first this does nothing.
 */
export async function installTemporalRuntime(): Promise<void> {
  if (runtimeInstalled || !runtimeLogger) return;
  runtimeInstalled = true;
  const { logger, level } = runtimeLogger;
  const { DefaultLogger, Runtime } = await import('@temporalio/worker');
  const temporalLevel = toTemporalLevel(level);
  Runtime.install({
    logger: new DefaultLogger(temporalLevel, (entry) => {
      const level = entry.level.toLowerCase() as 'trace' | 'debug' | 'info' | 'warn' | 'error';
      const method = EXPECTED_WARNINGS.has(entry.message) ? 'info' : level;
      logger[method]({ ...entry.meta }, entry.message);
    }),
    // The CLI decides what a signal means (Ctrl-C in `run` cancels the prompt), not the runtime.
    shutdownSignals: [],
    telemetryOptions: {
      ...metricsTelemetry(),
      logging: {
        forward: {},
        filter: `${temporalLevel === 'TRACE' ? 'DEBUG' : temporalLevel === 'DEBUG' ? 'INFO' : 'WARN'}`,
      },
    },
  });
}

/**
 * Warnings the SDK gives about a set-up we chose: the worker of a host's queue runs tools only, so
 * it has no workflows to poll for. Logged at info, so that a worker's start at the default level
 * (warn) prints no log line.
 */
const EXPECTED_WARNINGS = new Set(['No workflows registered, not polling for workflow tasks']);

function toTemporalLevel(level: string): LogLevel {
  switch (level) {
    case 'trace':
      return 'TRACE';
    case 'debug':
      return 'DEBUG';
    case 'info':
      return 'INFO';
    case 'warn':
      return 'WARN';
    default:
      return 'ERROR';
  }
}
