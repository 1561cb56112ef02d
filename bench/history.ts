import { temporal } from '@temporalio/proto';
import type { Client } from '@temporalio/client';
import type { Rig } from './rig';

const { EventType } = temporal.api.enums.v1;

/** What one prompt's workflow history holds: encoded size and the round trips it records. */
export interface HistoryShape {
  bytes: number;
  events: number;
  workflowTasks: number;
  activityTasks: number;
  localActivityMarkers: number;
}

export async function historyShape(client: Client, workflowId: string): Promise<HistoryShape> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const events = history.events ?? [];
  const count = (type: number) => events.filter((e) => e.eventType === type).length;
  const markers = events.filter(
    (e) =>
      e.eventType === EventType.EVENT_TYPE_MARKER_RECORDED &&
      e.markerRecordedEventAttributes?.markerName === 'core_local_activity',
  );
  return {
    bytes: temporal.api.history.v1.History.encode(history).finish().length,
    events: events.length,
    workflowTasks: count(EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED),
    activityTasks: count(EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED),
    localActivityMarkers: markers.length,
  };
}

export interface HistoryBytesResult {
  toolOutputBytes: number;
  turns: number;
  /** (bytes of an N-turn history − bytes of a 1-turn history) / (N − 1). */
  perTurnBytes: number;
  perTurnEvents: number;
  perTurnWorkflowTasks: number;
  perTurnActivityTasks: number;
  totalBytes: number;
}

/** History growth per turn (one model request + one read_file of `rig`'s file size). */
export async function measureHistoryBytes(
  rig: Rig,
  client: Client,
  toolOutputBytes: number,
  turns: number,
): Promise<HistoryBytesResult> {
  const one = await historyShape(client, (await rig.run(1)).workflowId);
  const long = await historyShape(client, (await rig.run(turns)).workflowId);
  const per = (key: keyof HistoryShape) => (long[key] - one[key]) / (turns - 1);
  return {
    toolOutputBytes,
    turns,
    perTurnBytes: per('bytes'),
    perTurnEvents: per('events'),
    perTurnWorkflowTasks: per('workflowTasks'),
    perTurnActivityTasks: per('activityTasks') + per('localActivityMarkers'),
    totalBytes: long.bytes,
  };
}
