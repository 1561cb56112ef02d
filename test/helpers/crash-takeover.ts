import type { Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';

/** The worker identity (`pid@host`) that started a workflow or activity task, for the events that name one. */
export function identityOf(event: temporal.api.history.v1.IHistoryEvent): string | undefined {
  return (
    event.workflowTaskStartedEventAttributes?.identity ??
    event.activityTaskStartedEventAttributes?.identity ??
    undefined
  );
}

/**
 * Waits until the worker process `pid` has started a task of one of `workflowIds` (read from their
 * histories): it has taken the session over. False if `isOpen` says the session closed first.
 */
export async function tookOver(
  client: Client,
  pid: number | undefined,
  workflowIds: string[],
  isOpen: () => Promise<boolean>,
): Promise<boolean> {
  const mine = `${pid}@`;
  for (;;) {
    for (const workflowId of workflowIds) {
      const history = await client.workflow
        .getHandle(workflowId)
        .fetchHistory()
        .catch(() => undefined);
      if (history?.events?.some((event) => identityOf(event)?.startsWith(mine))) return true;
    }
    if (!(await isOpen())) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
