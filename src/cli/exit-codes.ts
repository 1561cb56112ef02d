import type { StatusReport } from '../client';
import { EXIT_CODES, failureKind } from '../core/failures';

/** Gemini CLI's exit codes. */
export const EXIT = EXIT_CODES;

/** Thrown for bad command-line input: exit 42 with the message, nothing started. */
export { InputError } from '../client';

export function exitCodeFor(report: Pick<StatusReport, 'status' | 'error'>): number {
  switch (report.status) {
    case 'completed':
    case 'running':
    case 'awaiting_approval':
    case 'awaiting_answer':
    case 'loop_detected':
    case 'budget_exhausted':
      return EXIT.ok;
    case 'cancelled':
      return EXIT.cancelled;
    default:
      return failureKind(report.error?.type)?.exitCode ?? EXIT.error;
  }
}
