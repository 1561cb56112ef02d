import type { Client } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { tsToMs } from '@temporalio/common/lib/time';
import { temporal } from '@temporalio/proto';
import type { SessionOutcome } from './crash-run';
import { identityOf } from './crash-takeover';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** Something a crash caught in flight, read from workflow history after the run. */
export interface Interruption {
  at: number;
  workflowId: string;
  /** e.g. `runTool run_shell_command call_4_0`, `callModel turn 7`, `workflow task`. */
  what: string;
  /** The timeout that moved it on: `heartbeat`, `start_to_close`, `schedule_to_start`. */
  timeout?: string;
}

export interface KillReport {
  /** Milliseconds after the messages were sent. */
  atMs: number;
  interrupted: string[];
  /** From the kill to the first task a worker started afterwards (the new one, for worker kills). */
  recoveryMs?: number;
}

/** Reads the session's histories: which tasks a crash cut short, and when work resumed. */
export async function analyseKills(client: Client, outcome: SessionOutcome): Promise<KillReport[]> {
  const events: { workflowId: string; event: HistoryEvent }[] = [];
  for (const workflowId of outcome.workflowIds) {
    const history = await client.workflow.getHandle(workflowId).fetchHistory();
    for (const event of history.events ?? []) events.push({ workflowId, event });
  }
  const interruptions = events.flatMap(({ workflowId, event }) => interruptionOf(workflowId, event, events));
  const kills = outcome.crashes.filter((c) => c.happened);
  return kills.map((kill, k) => {
    const next = kills[k + 1]?.killedAt ?? Infinity;
    const mine = interruptions.filter((i) => i.at >= kill.killedAt && i.at < next);
    const newPid = outcome.workerPids[k + 1];
    const started = events
      .map(({ event }) => ({ at: time(event), identity: identityOf(event) }))
      .filter(
        (e) =>
          e.at > kill.killedAt &&
          e.identity !== undefined &&
          (newPid === undefined || e.identity.startsWith(`${newPid}@`)),
      );
    const first = Math.min(...started.map((e) => e.at));
    return {
      atMs: kill.killedAt - outcome.sentAt,
      interrupted: mine.map((i) => (i.timeout ? `${i.what} (${i.timeout} timeout)` : i.what)),
      recoveryMs: Number.isFinite(first) ? first - kill.killedAt : undefined,
    };
  });
}

function interruptionOf(
  workflowId: string,
  event: HistoryEvent,
  all: { workflowId: string; event: HistoryEvent }[],
): Interruption[] {
  const at = time(event);
  const started = event.activityTaskStartedEventAttributes;
  if (started && (started.attempt ?? 1) > 1) {
    const scheduled = all.find(
      (e) => e.workflowId === workflowId && Number(e.event.eventId) === Number(started.scheduledEventId),
    )?.event;
    return [
      {
        at,
        workflowId,
        what: describeActivity(scheduled),
        timeout: timeoutName(started.lastFailure?.timeoutFailureInfo?.timeoutType),
      },
    ];
  }
  const timedOut = event.workflowTaskTimedOutEventAttributes;
  if (timedOut) return [{ at, workflowId, what: 'workflow task', timeout: timeoutName(timedOut.timeoutType) }];
  if (event.workflowTaskFailedEventAttributes) return [{ at, workflowId, what: 'workflow task failed' }];
  return [];
}

function describeActivity(scheduled: HistoryEvent | undefined): string {
  const attrs = scheduled?.activityTaskScheduledEventAttributes;
  const type = attrs?.activityType?.name ?? 'activity';
  const payload = attrs?.input?.payloads?.[0];
  const input = payload ? (defaultPayloadConverter.fromPayload(payload) as Record<string, unknown>) : {};
  if (type === 'runTool') return `runTool ${String(input.name)} ${String(input.callId)}`;
  if (type === 'callModel') return `callModel turn ${String(input.turn)}`;
  return type;
}

function timeoutName(type: temporal.api.enums.v1.TimeoutType | null | undefined): string | undefined {
  if (!type) return undefined;
  return temporal.api.enums.v1.TimeoutType[type].replace('TIMEOUT_TYPE_', '').toLowerCase();
}

function time(event: HistoryEvent): number {
  return tsToMs(event.eventTime);
}
