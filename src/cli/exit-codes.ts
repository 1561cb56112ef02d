import type { StatusReport } from '../client';

/** Gemini CLI's exit codes (reference §13.2). */
export const EXIT = { ok: 0, error: 1, auth: 41, input: 42, config: 52, turnLimit: 53, cancelled: 130 } as const;

/** Thrown for bad command-line input: exit 42 with the message, nothing started. */
export class InputError extends Error {
  override name = 'InputError';
}

export function exitCodeFor(report: Pick<StatusReport, 'status' | 'error'>): number {
  switch (report.status) {
    case 'completed':
    case 'running':
    case 'awaiting_approval':
    case 'loop_detected':
    case 'budget_exhausted':
      return EXIT.ok;
    case 'cancelled':
      return EXIT.cancelled;
    default:
      if (report.error?.type === 'TurnLimit') return EXIT.turnLimit;
      if (report.error?.type === 'ModelCall.Auth') return EXIT.auth;
      return EXIT.error;
  }
}
