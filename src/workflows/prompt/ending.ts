import type { TerminateReason } from '../../core/types';

/**
 * How a prompt ends, as a value the loop returns: a result (exit 0) or a failure whose type is a row of the failure
 * table. `settle` turns it into the workflow's result or failure in one place. A budget stop has never fired
 * SessionEnd (`sessionEnd: false`); it stays so, since a running prompt must replay the same commands.
 */
export type Ending =
  | { kind: 'result'; reason: 'completed' | 'stopped'; sessionEnd?: false }
  | { kind: 'failure'; reason: TerminateReason; type: string; message: string };
