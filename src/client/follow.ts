import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { AgentEvent } from '../core/events';
import { LiveOrder, type StreamPiece } from '../core/live-text';
import type { LiveCursor, LiveStream } from '../store/live-stream';
import { eventsQuery } from '../workflows/api';
import { queryWithin } from './connection';

export interface FollowOptions {
  cursor?: number;
  pollMs?: number;
  signal?: AbortSignal;
  /** Model output as it streams, from the live side channel (see store/live-stream). */
  live?: { stream: LiveStream; onPiece(piece: StreamPiece): void };
}

/** Poll period while output is streaming: short enough to look live, long enough to batch chunks. */
const LIVE_POLL_MS = 40;

/**
 * Follows a prompt's events from `cursor` until it ends, by polling the events query. Returns when
 * the workflow is closed; the caller then reads the outcome with `promptStatus`.
 */
export async function followEvents(
  client: Client,
  workflowId: string,
  onEvent: (event: AgentEvent) => void,
  options: FollowOptions = {},
): Promise<void> {
  const handle = client.workflow.getHandle(workflowId);
  const order = new LiveOrder();
  const live = options.live && liveReader(options.live, workflowId, order);
  let cursor = options.cursor ?? 0;
  for (;;) {
    const page = await queryWithin(client, workflowId, eventsQuery, cursor);
    if (page) {
      page.events.forEach((e) => (order.event(e), onEvent(e)));
      cursor = page.next;
      if (page.done) return;
    }
    // After the events: a piece of a turn whose `content` event came already is ignored as shown.
    const streamed = (await live?.()) ?? 0;
    // A session's queued message has no prompt workflow until its turn comes: wait for it.
    const description = await handle.describe().catch((err) => {
      if (err instanceof WorkflowNotFoundError) return undefined;
      throw err;
    });
    if (description && description.status.name !== 'RUNNING' && (!page || page.events.length === 0)) return;
    if (options.signal?.aborted) return;
    const busy = (page && page.events.length > 0) || streamed > 0;
    await new Promise((r) => setTimeout(r, busy ? LIVE_POLL_MS : (options.pollMs ?? 150)));
  }
}

/** Reads new pieces and hands them on; returns how many. A failing read only costs the preview. */
function liveReader(
  live: NonNullable<FollowOptions['live']>,
  workflowId: string,
  order: LiveOrder,
): () => Promise<number> {
  let cursor: LiveCursor | undefined;
  return async () => {
    const read = await live.stream.read(workflowId, cursor).catch(() => undefined);
    if (!read) return 0;
    cursor = read.cursor;
    order.release(read.pieces).forEach((piece) => live.onPiece(piece));
    return read.pieces.length;
  };
}
