import { condition } from '@temporalio/workflow';

/**
 * Waits for a person's decision or answer: forever when no timeout is set (a prompt may wait hours
 * for an approval), else until `timeoutMs`. True once `settled` holds. With no timeout the wait is a
 * `condition` without one, so no timer command is recorded; with one, the same single timer as before.
 */
export async function waitForPerson(settled: () => boolean, timeoutMs: number | undefined): Promise<boolean> {
  if (timeoutMs === undefined) {
    await condition(settled);
    return true;
  }
  return condition(settled, timeoutMs);
}
