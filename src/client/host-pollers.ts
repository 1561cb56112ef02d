import type { Client, WorkflowExecutionDescription } from '@temporalio/client';
import { hostTaskQueue } from '../core/host-routing';

/** Activity state "scheduled": no worker has taken it yet (Temporal's PendingActivityState). */
const SCHEDULED = 1;
/** A live poller polls again within about a minute (long polls last ~60 s); older entries are gone workers. */
const POLLER_FRESH_MS = 90_000;
/** Activity task queues (Temporal's TaskQueueType). */
const ACTIVITY_QUEUE = 2;

/**
 * Whether a running prompt waits for its host: one of its activities is scheduled and not
 * taken, and no worker of the host polls the host's queue. Temporal keeps such an activity waiting
 * (we set no schedule-to-start timeout), so this is the only place the wait shows.
 */
export async function waitsForHost(
  client: Client,
  description: WorkflowExecutionDescription,
  host: string,
): Promise<boolean> {
  const pending = description.raw.pendingActivities ?? [];
  if (!pending.some((activity) => Number(activity.state) === SCHEDULED)) return false;
  return !(await hostIsPolled(client, hostTaskQueue(description.taskQueue, host)));
}

/** Whether a live worker of `host` polls the host queue of prompts started on `promptQueue`. */
export async function hostHasWorker(client: Client, promptQueue: string, host: string): Promise<boolean> {
  return hostIsPolled(client, hostTaskQueue(promptQueue, host));
}

async function hostIsPolled(client: Client, taskQueue: string): Promise<boolean> {
  const response = await client.workflowService.describeTaskQueue({
    namespace: client.options.namespace,
    taskQueue: { name: taskQueue, kind: 1 },
    taskQueueType: ACTIVITY_QUEUE,
  });
  const now = Date.now();
  return (response.pollers ?? []).some((poller) => {
    const seconds = Number(poller.lastAccessTime?.seconds ?? 0);
    return now - seconds * 1000 < POLLER_FRESH_MS;
  });
}
