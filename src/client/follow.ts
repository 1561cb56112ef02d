import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { AgentEvent } from '../core/events';
import { LiveOrder, type StreamPiece } from '../core/live-text';
import type { LiveCursor, LiveStream } from '../store/live-stream';
import { eventsQuery } from '../workflows/api';
import { queryWithin } from './connection';
import { HistoryWatch, type HistoryChange } from './history-watch';

/** What following a prompt yields, in the order it happened: its events, and model output as it streams. */
export type FollowItem = { kind: 'event'; event: AgentEvent } | { kind: 'piece'; piece: StreamPiece };

export interface FollowOptions {
  /** The first event to yield (an index into the prompt's events; 0 by default). */
  cursor?: number;
  /** How often the live side channel is read while no output streams, and a not-yet-started prompt looked for. */
  pollMs?: number;
  signal?: AbortSignal;
  /** Model output as it streams, from the live side channel (see store/live-stream). */
  live?: LiveStream;
}

/** Read period of the live side channel while output is streaming: looks live, batches chunks. */
const LIVE_POLL_MS = 40;
const IDLE_POLL_MS = 150;

/**
 * Follows a prompt from `cursor` until it ends (or `signal` aborts): its events, and with `live`
 * its model output as it streams. The events query runs once at the start and once each time the
 * prompt's history grows (see HistoryWatch); a continue-as-new is followed into the new run. A
 * session's queued message has no prompt workflow until its turn comes: the follower waits for it.
 * When this returns, the caller reads the outcome with `promptStatus`.
 */
export async function* followPrompt(
  client: Client,
  workflowId: string,
  options: FollowOptions = {},
): AsyncGenerator<FollowItem, void, undefined> {
  // Ends the parked long-poll when the caller stops iterating, as well as on the caller's abort.
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  try {
    yield* follow(client, workflowId, { ...options, signal });
  } finally {
    stop.abort();
  }
}

async function* follow(
  client: Client,
  workflowId: string,
  options: FollowOptions & { signal: AbortSignal },
): AsyncGenerator<FollowItem, void, undefined> {
  const watch = new HistoryWatch(client, workflowId, options.signal);
  const aborted = new Promise<undefined>((resolve) =>
    options.signal.addEventListener('abort', () => resolve(undefined), { once: true }),
  );
  const order = new LiveOrder();
  const live = options.live && liveReader(options.live, workflowId, order);
  const idleMs = options.pollMs ?? IDLE_POLL_MS;
  let cursor = options.cursor ?? 0;
  let change: HistoryChange | undefined = await watch.prime();
  for (;;) {
    if (change === 'missing') {
      if (!(await pause(idleMs, options.signal))) return;
      change = await watch.prime();
      continue;
    }
    const page = await queryWithin(client, workflowId, eventsQuery, cursor);
    for (const event of page?.events ?? []) {
      order.event(event);
      yield { kind: 'event', event };
    }
    if (page) cursor = page.next;
    if (page?.done) return;
    // After the events: a piece of a turn whose `content` event came already is ignored as shown.
    if (live) for (const piece of await live()) yield { kind: 'piece', piece };
    if (change === 'closed') {
      const next = await nextRun(client, workflowId);
      if (!next && (!page || page.events.length === 0)) return;
      if (next) watch.follow(next);
      change = next ? await watch.prime() : 'closed';
      continue;
    }
    if (options.signal.aborted) return;
    const waited = yield* waitForChange(watch, live, idleMs, { signal: options.signal, aborted });
    if (!waited) return;
    change = waited;
  }
}

/**
 * Parks on the history long-poll; meanwhile, with a live side channel, yields model output as it
 * streams. Undefined when `signal` aborted.
 */
async function* waitForChange(
  watch: HistoryWatch,
  live: (() => Promise<StreamPiece[]>) | undefined,
  idleMs: number,
  stop: { signal: AbortSignal; aborted: Promise<undefined> },
): AsyncGenerator<FollowItem, HistoryChange | undefined, undefined> {
  const { signal, aborted } = stop;
  const changed = watch.change().catch((err: unknown) => {
    if (signal.aborted) return undefined;
    throw err;
  });
  let streaming = false;
  for (;;) {
    const tick = live
      ? pause(streaming ? LIVE_POLL_MS : idleMs).then(() => 'tick' as const)
      : new Promise<never>(() => undefined);
    const first = await Promise.race([changed, aborted, tick]);
    if (first !== 'tick') return first;
    const pieces = await live!();
    streaming = pieces.length > 0;
    for (const piece of pieces) yield { kind: 'piece', piece };
  }
}

/** The run to follow after a run closed: the newest run when a continue-as-new started it, else undefined. */
async function nextRun(client: Client, workflowId: string): Promise<string | undefined> {
  const description = await client.workflow
    .getHandle(workflowId)
    .describe()
    .catch((err: unknown) => {
      if (err instanceof WorkflowNotFoundError) return undefined;
      throw err;
    });
  return description?.status.name === 'RUNNING' ? description.runId : undefined;
}

/** Waits `ms`; false when `signal` aborted first. */
function pause(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => (clearTimeout(timer), resolve(false));
    const timer = setTimeout(() => (signal?.removeEventListener('abort', onAbort), resolve(true)), ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Reads new pieces in the order they may be shown. A failing read only costs the preview. */
function liveReader(stream: LiveStream, workflowId: string, order: LiveOrder): () => Promise<StreamPiece[]> {
  let cursor: LiveCursor | undefined;
  return async () => {
    const read = await stream.read(workflowId, cursor).catch(() => undefined);
    if (!read) return [];
    cursor = read.cursor;
    return order.release(read.pieces);
  };
}

/** Callback form of `followPrompt`, for programs written against it. */
export async function followEvents(
  client: Client,
  workflowId: string,
  onEvent: (event: AgentEvent) => void,
  options: Omit<FollowOptions, 'live'> & { live?: { stream: LiveStream; onPiece(piece: StreamPiece): void } } = {},
): Promise<void> {
  const { live, ...rest } = options;
  for await (const item of followPrompt(client, workflowId, { ...rest, live: live?.stream })) {
    if (item.kind === 'event') onEvent(item.event);
    else live?.onPiece(item.piece);
  }
}
