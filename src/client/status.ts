import {
  WorkflowFailedError,
  type Client,
  type WorkflowExecutionDescription,
  type WorkflowHandle,
} from '@temporalio/client';
import { ApplicationFailure, CancelledFailure, TerminatedFailure } from '@temporalio/common';
import { STATUS_ATTRIBUTE, WAITING_STATUSES } from '../core/search-attributes';
import {
  statusQuery,
  type PromptResult,
  type PromptStats,
  type PromptStatus,
  sessionStatusQuery,
  type SessionStatus,
} from '../workflows/api';
import { queryWithin } from './connection';
import type { Todo } from '../tools/write-todos';
import type { Topic } from '../tools/update-topic';
import { waitsForHost } from './host-pollers';
import { terminationOf, wedgedReason } from './troubles';
import { runningToolsOf, type RunningTool } from './running-tools';
import { checkpointOfEachTurn, type TurnRecord } from '../core/checkpoints';

async function hostReport(client: Client, description: WorkflowExecutionDescription, host: string) {
  const waiting = await waitsForHost(client, description, host).catch(() => false);
  return { host, ...(waiting ? { waitingForHost: host } : {}) };
}

export type StatusName =
  | 'running'
  | 'awaiting_approval'
  | 'awaiting_answer'
  | 'loop_detected'
  | 'budget_exhausted'
  | 'completed'
  | 'failed'
  | 'cancelled'
  | 'terminated';

/** The `status --json` contract (documented in the README). */
export interface StatusReport {
  workflowId: string;
  status: StatusName;
  turns?: number;
  pendingApprovals: { callId: string; name: string; args: unknown }[];
  /** `ask_user` calls waiting for an answer; present only while there are some. */
  pendingQuestions?: { callId: string; questions: unknown }[];
  response?: string;
  error?: { type: string; message: string };
  stats?: PromptStats;
  /** The model's todo list (`write_todos`), once it wrote one. */
  todos?: Todo[];
  /** The chapters the model named (`update_topic`), oldest first. */
  topics?: Topic[];
  /** The host whose workers run the prompt's tools; shown while it runs. */
  host?: string;
  /** Set while an activity of the prompt waits because no worker of its host is up (client/host-pollers.ts). */
  waitingForHost?: string;
  /** Tool calls executing now; present only while there are some. */
  runningTools?: RunningTool[];
  /** Each turn's checkpoint (the workspace as the turn left it); absent in prompts from before checkpoints. */
  checkpoints?: { turn: number; checkpoint?: string }[];
  /** The spending limit and the spend (US dollars) of a running prompt that has one; `nextRequestUsd` while paused. */
  costLimit?: PromptStatus['costLimit'];
}

/** What the server says about a workflow execution (throws WorkflowNotFoundError for an unknown id). */
export interface ExecutionSummary {
  type: string;
  /** Temporal's execution status: RUNNING, COMPLETED, CONTINUED_AS_NEW, ... */
  status: string;
  taskQueue: string;
  /** The workflow that started this one (a session, for its prompts). */
  parentId?: string;
}

export async function describeExecution(client: Client, workflowId: string): Promise<ExecutionSummary> {
  const description = await client.workflow.getHandle(workflowId).describe();
  const parentId = description.parentExecution?.workflowId;
  return {
    type: description.type,
    status: description.status.name,
    taskQueue: description.taskQueue,
    ...(parentId ? { parentId } : {}),
  };
}

/** A running prompt's own view (phase, pending calls); undefined when no worker answered in time. */
export function promptState(client: Client, workflowId: string): Promise<PromptStatus | undefined> {
  return queryWithin(client, workflowId, statusQuery);
}

/** A session's counts and queue; undefined when no worker answered in time. */
export function sessionStatus(client: Client, sessionId: string): Promise<SessionStatus | undefined> {
  return queryWithin(client, sessionId, sessionStatusQuery);
}

/**
 * Whether `callId` still awaits approval. Asked with no deadline of its own: the answer decides
 * whether a person is asked again, so it waits as long as the update that was just refused did.
 */
export async function isAwaitingApproval(client: Client, workflowId: string, callId: string): Promise<boolean> {
  const status = await client.workflow
    .getHandle(workflowId)
    .query(statusQuery)
    .catch(() => undefined);
  return status?.pendingApprovals.some((p) => p.callId === callId) ?? false;
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
      if (!s) return unansweredStatus(client, workflowId, description, base);
      const status = s.phase === 'finished' ? 'running' : s.phase;
      const todos = { ...(s.todos ? { todos: s.todos } : {}), ...(s.topics ? { topics: s.topics } : {}) };
      const questions = s.pendingQuestions?.length ? { pendingQuestions: s.pendingQuestions } : {};
      const waiting = { pendingApprovals: s.pendingApprovals, ...questions };
      const host = s.host ? await hostReport(client, description, s.host) : {};
      const tools = runningToolsOf(s, description);
      const running = tools.length > 0 ? { runningTools: tools } : {};
      const named = checkpointsOf(s.turnRecords);
      const cost = s.costLimit ? { costLimit: s.costLimit } : {};
      const extra = { ...todos, ...host, ...named, ...cost };
      return { ...base, status, turns: s.turns, ...waiting, ...running, stats: s.stats, ...extra };
    }
    case 'COMPLETED': {
      const r = (await handle.result()) as PromptResult;
      const todos = { ...(r.todos ? { todos: r.todos } : {}), ...(r.topics ? { topics: r.topics } : {}) };
      const named = checkpointsOf(r.turnRecords);
      return { ...base, status: 'completed', turns: r.turns, response: r.response, stats: r.stats, ...todos, ...named };
    }
    default:
      return closedWithoutResult(client, handle, base);
  }
}

/** A running prompt no worker answered for: what its search attribute says, and why (wedged or no worker). */
async function unansweredStatus(
  client: Client,
  workflowId: string,
  description: WorkflowExecutionDescription,
  base: Pick<StatusReport, 'workflowId' | 'pendingApprovals'>,
): Promise<StatusReport> {
  const wedged = await wedgedReason(client, workflowId, description);
  const published = description.typedSearchAttributes.get(STATUS_ATTRIBUTE);
  const waiting = WAITING_STATUSES.find((status) => status === published);
  return {
    ...base,
    status: waiting ?? 'running',
    error: wedged
      ? { type: 'WorkflowTaskFailed', message: wedged }
      : {
          type: 'NoWorker',
          message: 'no worker answered; start one with `durable-agent server` or `durable-agent worker`',
        },
  };
}

/** `checkpoints` of the status report: each turn's, as the turn records name them. */
function checkpointsOf(records: TurnRecord[] | undefined): Pick<StatusReport, 'checkpoints'> {
  if (!records) return {};
  const refs = checkpointOfEachTurn(records);
  return { checkpoints: records.map((r, k) => ({ turn: r.turn, ...(refs[k] ? { checkpoint: refs[k] } : {}) })) };
}

/** What a closed prompt's last status query still tells: turns, stats, text so far, todos and topics. */
function progressOf(s: PromptStatus): Partial<StatusReport> {
  const lists = { ...(s.todos && { todos: s.todos }), ...(s.topics && { topics: s.topics }) };
  return { turns: s.turns, stats: s.stats, response: s.response, ...lists, ...checkpointsOf(s.turnRecords) };
}

async function closedWithoutResult(
  client: Client,
  handle: WorkflowHandle,
  base: Pick<StatusReport, 'workflowId' | 'pendingApprovals'>,
): Promise<StatusReport> {
  try {
    await handle.result();
  } catch (err) {
    const cause = err instanceof WorkflowFailedError ? err.cause : err;
    const s =
      cause instanceof ApplicationFailure ? undefined : await queryWithin(client, handle.workflowId, statusQuery);
    const extra = s ? progressOf(s) : {};
    if (cause instanceof CancelledFailure)
      return {
        ...base,
        ...extra,
        status: 'cancelled',
        error: { type: 'Cancelled', message: 'the prompt was cancelled' },
      };
    if (cause instanceof TerminatedFailure)
      return {
        ...base,
        ...extra,
        status: 'terminated',
        error: { type: 'Terminated', message: await terminationOf(client, handle.workflowId) },
      };
    if (cause instanceof ApplicationFailure) {
      const details = (cause.details?.[0] ?? {}) as Partial<StatusReport>;
      return {
        ...base,
        ...details,
        ...extra,
        status: 'failed',
        error: { type: cause.type ?? 'Error', message: cause.message },
      };
    }
    return { ...base, ...extra, status: 'failed', error: { type: 'Error', message: (cause as Error).message } };
  }
  return { ...base, status: 'failed' };
}
