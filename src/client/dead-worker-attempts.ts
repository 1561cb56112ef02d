import * as os from 'node:os';
import type { Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { parseIdentity } from '../core/host-routing';
import { processAlive } from '../process-alive';

/** temporal.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_STARTED: an attempt is running. */
const ATTEMPT_STARTED = 2;

/** The failure type of an attempt whose worker process was found dead; retryable for every activity. */
export const WORKER_DIED = 'WorkerDied';

/**
 * How soon the failed attempt is retried. Temporal honours an application failure's next retry delay
 * over the retry policy's interval, so the attempt is retried at once whatever backoff the activity
 * has for real errors (the model's 5 s, Gemini CLI's delay for API errors).
 */
const RETRY_AT_ONCE_MS = 1;

/** The pid of a worker identity `pid@host` (the SDK's default) when `host` is this machine; else undefined. */
export function localPidOf(identity: string, host: string = os.hostname()): number | undefined {
  const parsed = parseIdentity(identity);
  if (!parsed || parsed.host !== host) return undefined;
  return Number.isSafeInteger(parsed.pid) && parsed.pid > 0 ? parsed.pid : undefined;
}

/** The worker of a dead local process (not this one), by identity. */
function deadLocalWorker(identity: string, selfPid: number): boolean {
  const pid = localPidOf(identity);
  return pid !== undefined && pid !== selfPid && !processAlive(pid);
}

/**
 * A workflow's next task goes to the sticky queue of the worker that completed its last one, and waits
 * there for the sticky timeout (1 s) when that worker is gone. If that worker was a dead process of this
 * host, the workflow's stickiness is reset so that its next task (an approval's signal, a failed
 * attempt's retry result) goes straight to the shared queue. Stickiness is only a cache: a wrong reset
 * would cost a replay, never a result.
 */
async function unstickFromDeadWorker(
  client: Client,
  execution: { workflowId: string; runId?: string },
  selfPid: number,
) {
  const namespace = client.options.namespace;
  const { history } = await client.workflowService.getWorkflowExecutionHistoryReverse({
    namespace,
    execution,
    maximumPageSize: 20,
  });
  const completed = history?.events?.find((e) => e.workflowTaskCompletedEventAttributes);
  const identity = completed?.workflowTaskCompletedEventAttributes?.identity ?? '';
  if (deadLocalWorker(identity, selfPid)) await client.workflowService.resetStickyTaskQueue({ namespace, execution });
}

/**
 * Fails, by workflow, run and activity id, every started activity attempt of a running workflow whose
 * worker was a process of this host that no longer exists, so that it is retried at once instead of
 * after its heartbeat timeout (a model call's 15 s plus the first retry delay). A new worker calls it
 * as it starts: a worker killed mid-call says nothing to the server. A worker on another host, or a
 * live one, is never touched; a pid reused by an unrelated process only means waiting for the timeout
 * as before. Workflows whose last task a dead worker of this host completed lose their stickiness
 * first. Returns how many attempts were failed; errors (a workflow that just closed, an attempt that
 * just completed) are skipped.
 */
export async function failDeadWorkersAttempts(client: Client, selfPid: number = process.pid): Promise<number> {
  const namespace = client.options.namespace;
  let failed = 0;
  for await (const wf of client.workflow.list({ query: 'ExecutionStatus="Running"' })) {
    const execution = { workflowId: wf.workflowId, runId: wf.runId };
    // Before its activities are failed: the task their failure schedules must not wait on a dead sticky queue.
    await unstickFromDeadWorker(client, execution, selfPid).catch(() => undefined);
    const description = await client.workflowService
      .describeWorkflowExecution({ namespace, execution })
      .catch(() => undefined);
    for (const activity of description?.pendingActivities ?? []) {
      const identity = activity.lastWorkerIdentity ?? '';
      if (activity.state !== ATTEMPT_STARTED || !activity.activityId || !deadLocalWorker(identity, selfPid)) continue;
      const failure = ApplicationFailure.create({
        type: WORKER_DIED,
        message: `worker ${identity} died during this attempt`,
        nextRetryDelay: RETRY_AT_ONCE_MS,
      });
      const id = { ...execution, activityId: activity.activityId };
      if (
        await client.activity.fail(id, failure).then(
          () => true,
          () => false,
        )
      )
        failed += 1;
    }
  }
  return failed;
}
