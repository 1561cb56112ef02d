import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ActivityFailure, ApplicationFailure, ChildWorkflowFailure } from '@temporalio/common';

/**
 * One line for a failure that came back through Temporal. A refused or failed update gives its
 * cause's message. A failed activity or child says only that it failed ("Activity task failed"):
 * the reason is its cause (the model error under a failed compression, say), given with its type.
 */
export function failureText(err: unknown): string {
  let cause: unknown = err instanceof WorkflowUpdateFailedError && err.cause ? err.cause : err;
  let wrapped = false;
  while ((cause instanceof ActivityFailure || cause instanceof ChildWorkflowFailure) && cause.cause) {
    cause = cause.cause;
    wrapped = true;
  }
  if (wrapped && cause instanceof ApplicationFailure && cause.type) return `${cause.type}: ${cause.message}`;
  return cause instanceof Error ? cause.message : String(cause);
}
