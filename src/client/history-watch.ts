import { isGrpcServiceError, type Client } from '@temporalio/client';

/** What a wait on a workflow's history saw: new events, the run's end, or no such workflow (yet). */
export type HistoryChange = 'grew' | 'closed' | 'missing';

/** Events per history page; a shorter page means the read reached the end of the history. */
const PAGE_SIZE = 1000;
/** gRPC status codes (the raw service calls throw gRPC errors, not the SDK's typed ones). */
const DEADLINE_EXCEEDED = 4;
const NOT_FOUND = 5;
const UNAVAILABLE = 14;
/**
 * EVENT_TYPE_WORKFLOW_TASK_COMPLETED: a prompt's state (hence its events) changes only when a
 * workflow task completes; activities starting or a task being scheduled change nothing a query sees.
 */
const WORKFLOW_TASK_COMPLETED = 7;

/**
 * Waits for a workflow's history to grow with Temporal's history long-poll
 * (`GetWorkflowExecutionHistory` with `waitNewEvent`): the server parks the call until an event is
 * added or the run closes, so a follower costs one open call while nothing happens instead of a
 * query loop. A prompt's events change only when a workflow task completes, which adds events, so
 * a follower asks the events query once per wake-up. The first wait reads the history to its end
 * (once per run); every later one returns only what was added.
 */
export class HistoryWatch {
  private token: Uint8Array | undefined;
  private runId = '';
  private atEnd = false;

  constructor(
    private readonly client: Client,
    private readonly workflowId: string,
    private readonly signal?: AbortSignal,
  ) {}

  /**
   * Reads the history to its end, so that the next `change()` waits for what comes after now.
   * Undefined when it read one page only; a longer read may have waited on a page that ended
   * exactly at the end, so it says `grew` and the caller asks once more.
   */
  async prime(): Promise<HistoryChange | undefined> {
    for (let pages = 1; ; pages++) {
      const read = await this.read();
      if (read === 'closed' || read === 'missing') return read;
      if (this.atEnd) return pages > 1 ? 'grew' : undefined;
    }
  }

  /** Resolves when the history grew, the run closed, or the workflow does not exist. */
  async change(): Promise<HistoryChange> {
    for (;;) {
      const read = await this.read();
      // A long-poll that expired comes back empty, and most events leave the state as it was: park again.
      if (read !== 'unchanged') return read;
    }
  }

  /** After a run closed: watch the workflow's newest run (a continue-as-new started one) from its start. */
  follow(runId: string): void {
    this.runId = runId;
    this.token = undefined;
    this.atEnd = false;
  }

  private async read(): Promise<HistoryChange | 'unchanged'> {
    const response = await this.call().catch((err: unknown) => {
      if (isGrpcServiceError(err) && err.code === NOT_FOUND) return 'missing' as const;
      // A proxy between here and the server may end a parked call before the server's own expiry.
      if (isGrpcServiceError(err) && err.code === DEADLINE_EXCEEDED) return 'unchanged' as const;
      throw this.unreachable(err);
    });
    if (typeof response === 'string') return response;
    const events = response.history?.events ?? [];
    this.token = response.nextPageToken?.length ? response.nextPageToken : undefined;
    if (!this.token) return 'closed';
    this.atEnd = events.length < PAGE_SIZE;
    return events.some((e) => Number(e.eventType) === WORKFLOW_TASK_COMPLETED) ? 'grew' : 'unchanged';
  }

  /** One parked call; its own abort signal, since the SDK leaves a listener on the signal it is given. */
  private async call() {
    const { client, signal } = this;
    const own = new AbortController();
    const onAbort = () => own.abort();
    if (signal?.aborted) own.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await client.connection.withAbortSignal(own.signal, () =>
        client.workflowService.getWorkflowExecutionHistory({
          namespace: client.options.namespace,
          execution: { workflowId: this.workflowId, runId: this.runId },
          waitNewEvent: true,
          maximumPageSize: PAGE_SIZE,
          nextPageToken: this.token,
        }),
      );
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  private unreachable(err: unknown): unknown {
    if (this.signal?.aborted) return err;
    if (!isGrpcServiceError(err) || err.code !== UNAVAILABLE) return err;
    const address = (this.client.connection as { options?: { address?: string } }).options?.address ?? 'its address';
    return new Error(
      `lost the Temporal server at ${address} while following ${this.workflowId}: ${err.details || err.message}; ` +
        'the prompt itself is unaffected: follow it again with `durable-agent watch` once the server is back',
    );
  }
}
