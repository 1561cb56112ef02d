import type { temporal } from '@temporalio/proto';

type Event = temporal.api.history.v1.IHistoryEvent;

/** The ActivityTaskStarted events of `activityType`, in history order, with the failure of the attempt before each. */
export function startedAttempts(events: Event[], activityType: string) {
  const scheduled = new Set(
    events
      .filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === activityType)
      .map((e) => String(e.eventId)),
  );
  return events
    .map((e) => e.activityTaskStartedEventAttributes)
    .filter((a) => a && scheduled.has(String(a.scheduledEventId)))
    .map((a) => ({ attempt: a!.attempt, lastFailureType: a!.lastFailure?.applicationFailureInfo?.type }));
}
