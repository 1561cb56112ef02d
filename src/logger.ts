import pino from 'pino';
import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';

export type Logger = pino.Logger;

let runtimeInstalled = false;

/**
 * The process's one pino logger, writing JSON lines to stderr (stdout belongs to command output).
 * It is also installed as Temporal's runtime logger, which must happen before the first worker or
 * native connection exists. Prompts and model output are never logged, only sizes and names.
 */
export function createLogger(level: string): Logger {
  const logger = pino({ level, base: undefined }, pino.destination(2));
  if (!runtimeInstalled) {
    runtimeInstalled = true;
    const temporalLevel = toTemporalLevel(level);
    Runtime.install({
      logger: new DefaultLogger(temporalLevel, (entry) => {
        const method = entry.level.toLowerCase() as 'trace' | 'debug' | 'info' | 'warn' | 'error';
        logger[method]({ ...entry.meta }, entry.message);
      }),
      // The CLI decides what a signal means (Ctrl-C in `run` cancels the prompt), not the runtime.
      shutdownSignals: [],
      telemetryOptions: { logging: { forward: {}, filter: `${temporalLevel === 'TRACE' ? 'DEBUG' : temporalLevel === 'DEBUG' ? 'INFO' : 'WARN'}` } },
    });
  }
  return logger;
}

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
