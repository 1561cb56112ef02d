import { Client, Connection, WithStartWorkflowOperation, WorkflowFailedError, WorkflowNotFoundError, type WorkflowHandle } from '@temporalio/client';
import type { QueryDefinition } from '@temporalio/common';
import { ApplicationFailure, CancelledFailure, TerminatedFailure } from '@temporalio/common';
import type { AgentEvent } from './core/events';
import { LiveOrder, type StreamPiece } from './core/live-text';
import type { LiveCursor, LiveStream } from './store/live-stream';
import { KIND_ATTRIBUTE, SEARCH_ATTRIBUTE_NAMES, STATUS_ATTRIBUTE } from './core/search-attributes';
import type { agentPromptWorkflow, agentSessionWorkflow } from './workflows';
import { payloadLimitInterceptor } from './payload-limit';
import { sendMessageUpdate, type SessionInput } from './workflows/session-workflow';
import { eventsQuery, statusQuery, type PromptInput, type PromptResult, type PromptStats } from './workflows/messages';

export type StatusName = 'running' | 'awaiting_approval' | 'loop_detected' | 'budget_exhausted' | 'completed' | 'failed' | 'cancelled' | 'terminated';

/** The `status --json` contract (DESIGN.md). */
export interface StatusReport {
  workflowId: string;
  status: StatusName;
  turns?: number;
  pendingApprovals: { callId: string; name: string; args: unknown }[];
  response?: string;
  error?: { type: string; message: string };
  stats?: PromptStats;
}

/** How long a query may wait for a worker: a prompt whose worker is gone must not hang the CLI. */
const QUERY_DEADLINE_MS = 4000;

/** A query bounded by a deadline; undefined when no worker answered in time. */
export async function queryWithin<R, A extends unknown[]>(client: Client, workflowId: string, def: QueryDefinition<R, A>, ...args: A): Promise<R | undefined> {
  const handle = client.workflow.getHandle(workflowId);
  return client.connection.withDeadline(Date.now() + QUERY_DEADLINE_MS, () => handle.query(def, ...args)).catch(() => undefined);
}

export async function connectClient(address: string, namespace: string, connectionOptions: object = {}): Promise<Client> {
  const connection = await Connection.connect({ ...connectionOptions, address });
  return new Client({ connection, namespace, interceptors: { workflow: [payloadLimitInterceptor()] } });
}

/** Starts one prompt; the client only starts workflows and sends messages (STYLE rule 1). */
export async function startPrompt(client: Client, input: PromptInput, options: { taskQueue: string; workflowId: string }): Promise<WorkflowHandle<typeof agentPromptWorkflow>> {
  const searchAttributes = await hasAgentSearchAttributes(client);
  return client.workflow.start<typeof agentPromptWorkflow>('agentPromptWorkflow', {
    taskQueue: options.taskQueue,
    workflowId: options.workflowId,
    args: [{ ...input, searchAttributes }],
    typedSearchAttributes: searchAttributes
      ? [
          { key: STATUS_ATTRIBUTE, value: 'running' },
          { key: KIND_ATTRIBUTE, value: 'prompt' },
        ]
      : undefined,
  });
}

const registeredAttributes = new WeakMap<Client, Promise<boolean>>();

/** Whether the namespace has the DurableAgent* search attributes (asked once per client). */
export function hasAgentSearchAttributes(client: Client): Promise<boolean> {
  let known = registeredAttributes.get(client);
  if (!known) {
    known = client.connection.operatorService
      .listSearchAttributes({ namespace: client.options.namespace })
      .then((r) => SEARCH_ATTRIBUTE_NAMES.every((name) => name in (r.customAttributes ?? {})))
      .catch(() => false);
    registeredAttributes.set(client, known);
  }
  return known;
}

/**
 * Adds a message to a session, starting the session if it does not exist yet (update-with-start),
 * and returns the id of the prompt that will run it.
 */
export async function sendToSession(client: Client, sessionId: string, text: string, options: { taskQueue: string; defaults?: SessionInput['defaults']; steer?: boolean }): Promise<string> {
  if (!options.defaults) return client.workflow.getHandle(sessionId).executeUpdate(sendMessageUpdate, { args: [{ text, steer: options.steer }] });
  const start = new WithStartWorkflowOperation<typeof agentSessionWorkflow>('agentSessionWorkflow', {
    workflowId: sessionId,
    taskQueue: options.taskQueue,
    args: [{ defaults: options.defaults }],
    workflowIdConflictPolicy: 'USE_EXISTING',
    // A closed session's id is not reused: a new run would start an empty conversation on its transcript.
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
  });
  return client.workflow.executeUpdateWithStart(sendMessageUpdate, { args: [{ text }], startWorkflowOperation: start });
}

/** Ids of running prompts with a call awaiting approval (all running prompts without the attributes). */
export async function promptsAwaitingApproval(client: Client, limit = 200): Promise<string[]> {
  const query = (await hasAgentSearchAttributes(client))
    ? `${STATUS_ATTRIBUTE.name} = 'awaiting_approval' AND ExecutionStatus = 'Running'`
    : "WorkflowType = 'agentPromptWorkflow' AND ExecutionStatus = 'Running'";
  const ids: string[] = [];
  for await (const wf of client.workflow.list({ query })) {
    ids.push(wf.workflowId);
    if (ids.length >= limit) break;
  }
  return ids;
}

/**
 * Follows a prompt's events from `cursor` until it ends, by polling the events query. Returns when
 * the workflow is closed; the caller then reads the outcome with `promptStatus`.
 */
export async function followEvents(client: Client, workflowId: string, onEvent: (event: AgentEvent) => void, options: FollowOptions = {}): Promise<void> {
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

export interface FollowOptions {
  cursor?: number;
  pollMs?: number;
  signal?: AbortSignal;
  /** Model output as it streams, from the live side channel (see store/live-stream). */
  live?: { stream: LiveStream; onPiece(piece: StreamPiece): void };
}

/** Poll period while output is streaming: short enough to look live, long enough to batch chunks. */
const LIVE_POLL_MS = 40;

/** Reads new pieces and hands them on; returns how many. A failing read only costs the preview. */
function liveReader(live: NonNullable<FollowOptions['live']>, workflowId: string, order: LiveOrder): () => Promise<number> {
  let cursor: LiveCursor | undefined;
  return async () => {
    const read = await live.stream.read(workflowId, cursor).catch(() => undefined);
    if (!read) return 0;
    cursor = read.cursor;
    order.release(read.pieces).forEach((piece) => live.onPiece(piece));
    return read.pieces.length;
  };
}

/** The status report of any prompt, running or closed, also with no worker running (closed ones). */
export async function promptStatus(client: Client, workflowId: string): Promise<StatusReport> {
  const handle = client.workflow.getHandle(workflowId);
  const description = await handle.describe();
  const base: Pick<StatusReport, 'workflowId' | 'pendingApprovals'> = { workflowId, pendingApprovals: [] };
  switch (description.status.name) {
    case 'RUNNING':
    case 'CONTINUED_AS_NEW': {
      const s = await queryWithin(client, workflowId, statusQuery);
      if (!s) {
        const waiting = description.typedSearchAttributes.get(STATUS_ATTRIBUTE) === 'awaiting_approval';
        return { ...base, status: waiting ? 'awaiting_approval' : 'running', error: { type: 'NoWorker', message: 'no worker answered; start one with `durable-agent server` or `durable-agent worker`' } };
      }
      const status = s.phase === 'finished' ? 'running' : s.phase;
      return { ...base, status, turns: s.turns, pendingApprovals: s.pendingApprovals, stats: s.stats };
    }
    case 'COMPLETED': {
      const r = (await handle.result()) as PromptResult;
      return { ...base, status: 'completed', turns: r.turns, response: r.response, stats: r.stats };
    }
    default:
      return closedWithoutResult(client, handle, base);
  }
}

async function closedWithoutResult(client: Client, handle: WorkflowHandle, base: Pick<StatusReport, 'workflowId' | 'pendingApprovals'>): Promise<StatusReport> {
  try {
    await handle.result();
  } catch (err) {
    const cause = err instanceof WorkflowFailedError ? err.cause : err;
    const s = cause instanceof ApplicationFailure ? undefined : await queryWithin(client, handle.workflowId, statusQuery);
    const extra = s ? { turns: s.turns, stats: s.stats, response: s.response } : {};
    if (cause instanceof CancelledFailure) return { ...base, ...extra, status: 'cancelled', error: { type: 'Cancelled', message: 'the prompt was cancelled' } };
    if (cause instanceof TerminatedFailure) return { ...base, ...extra, status: 'terminated', error: { type: 'Terminated', message: cause.message } };
    if (cause instanceof ApplicationFailure) {
      const details = (cause.details?.[0] ?? {}) as Partial<StatusReport>;
      return { ...base, ...details, ...extra, status: 'failed', error: { type: cause.type ?? 'Error', message: cause.message } };
    }
    return { ...base, ...extra, status: 'failed', error: { type: 'Error', message: (cause as Error).message } };
  }
  return { ...base, status: 'failed' };
}

export async function cancelPrompt(client: Client, workflowId: string): Promise<void> {
  await client.workflow.getHandle(workflowId).cancel();
}

export interface ListedPrompt {
  workflowId: string;
  type: string;
  status: string;
  startTime: string;
}

export async function listPrompts(client: Client, limit = 50): Promise<ListedPrompt[]> {
  const out: ListedPrompt[] = [];
  for await (const wf of client.workflow.list({ query: "WorkflowType IN ('agentPromptWorkflow', 'agentSessionWorkflow')" })) {
    out.push({ workflowId: wf.workflowId, type: wf.type, status: wf.status.name, startTime: wf.startTime.toISOString() });
    if (out.length >= limit) break;
  }
  return out;
}

export { WorkflowNotFoundError };
