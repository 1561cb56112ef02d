import type { Client } from '@temporalio/client';
import { tsToMs } from '@temporalio/common/lib/time';
import { temporal } from '@temporalio/proto';

type History = temporal.api.history.v1.IHistory;
type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** What the history of one workflow id weighs over all of its runs (continue-as-new chain). */
export interface HistorySize {
  runs: number;
  /** Encoded protobuf bytes of all runs' histories together. */
  bytes: number;
  events: number;
  largestRun: { bytes: number; events: number };
  /** Encoded bytes per event type, largest first. */
  byType: { type: string; bytes: number; count: number }[];
  /** Scheduled-to-completed milliseconds of every completed activity of `activityType`, in order. */
  activityMs: (activityType: string) => number[];
}

const { History, HistoryEvent } = temporal.api.history.v1;
const EventType = temporal.api.enums.v1.EventType;

/**
 * Fetches every run of `workflowId`, following the continue-as-new chain from the first run (each
 * run's last event names the next run), so no visibility lag can hide a run.
 */
export async function measureHistory(client: Client, workflowId: string, firstRunId: string): Promise<HistorySize> {
  const histories: History[] = [];
  for (let runId: string | undefined = firstRunId; runId; ) {
    const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    histories.push(history);
    runId = nextRunOf(history);
  }
  const sizes = histories.map((h) => ({ bytes: History.encode(h).finish().length, events: h.events?.length ?? 0 }));
  const events = histories.flatMap((h) => h.events ?? []);
  return {
    runs: histories.length,
    bytes: sizes.reduce((sum, s) => sum + s.bytes, 0),
    events: events.length,
    largestRun: sizes.reduce((a, b) => (b.bytes > a.bytes ? b : a)),
    byType: bytesByType(events),
    activityMs: (activityType) => activityDurations(histories, activityType),
  };
}

function nextRunOf(history: History): string | undefined {
  const last = history.events?.[history.events.length - 1];
  return last?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
}

function bytesByType(events: HistoryEvent[]): HistorySize['byType'] {
  const totals = new Map<string, { bytes: number; count: number }>();
  for (const event of events) {
    const type = (EventType[event.eventType ?? 0] ?? String(event.eventType)).replace(/^EVENT_TYPE_/, '');
    const total = totals.get(type) ?? { bytes: 0, count: 0 };
    total.bytes += HistoryEvent.encode(event).finish().length;
    total.count += 1;
    totals.set(type, total);
  }
  return [...totals].map(([type, t]) => ({ type, ...t })).sort((a, b) => b.bytes - a.bytes);
}

/** Ids are per run, so each run is matched on its own. */
function activityDurations(histories: History[], activityType: string): number[] {
  const durations: number[] = [];
  for (const history of histories) {
    const scheduled = new Map<string, number>();
    for (const event of history.events ?? []) {
      const s = event.activityTaskScheduledEventAttributes;
      if (s?.activityType?.name === activityType) scheduled.set(String(event.eventId), tsToMs(event.eventTime));
      const done = event.activityTaskCompletedEventAttributes;
      const at = done ? scheduled.get(String(done.scheduledEventId)) : undefined;
      if (done && at !== undefined) durations.push(tsToMs(event.eventTime) - at);
    }
  }
  return durations;
}

/** Mean of the `width` values ending at 1-based position `n` (a single turn's time is noisy). */
export function meanAround(values: number[], n: number, width = 10): number {
  const slice = values.slice(Math.max(0, n - width), n);
  return slice.length === 0 ? NaN : Math.round(slice.reduce((a, b) => a + b, 0) / slice.length);
}
