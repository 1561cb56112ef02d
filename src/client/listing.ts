import type { Client } from '@temporalio/client';
import type { ListingMemo } from '../workflows/state/summaries';
import type { CostStats } from '../core/cost';
import { statusQuery, type PromptResult, type PromptStats } from '../workflows/api';
import { queryWithin, queuePolled } from './connection';

/** `list --status` values, and the ExecutionStatus each one queries. */
const STATUS_QUERY = {
  running: 'Running',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Canceled',
  terminated: 'Terminated',
  timed_out: 'TimedOut',
} as const;
export type ListStatus = keyof typeof STATUS_QUERY;
export const LIST_STATUSES = Object.keys(STATUS_QUERY) as ListStatus[];

/** At most this many executions are read to order them: visibility stores do not all sort by start time. */
const SCAN = 1000;

export interface ListedPrompt {
  workflowId: string;
  type: string;
  status: string;
  startTime: string;
  /** From the memo the prompt or session was started with; absent on ones started before it existed. */
  summary?: string;
  workspace?: string;
  host?: string;
  /** Running ones only: false when no worker polls the prompt's task queue, so it cannot move on. */
  served?: boolean;
  /** A prompt's spend so far (completed, or running and served), from its result or status query. */
  cost?: CostStats;
}

/** Prompts and sessions, newest first; `status` keeps one state only. */
export async function listPrompts(
  client: Client,
  options: { limit?: number; status?: ListStatus } = {},
): Promise<ListedPrompt[]> {
  const types = "WorkflowType IN ('agentPromptWorkflow', 'agentSessionWorkflow')";
  const query = options.status ? `${types} AND ExecutionStatus = '${STATUS_QUERY[options.status]}'` : types;
  const out: ListedPrompt[] = [];
  const queues = new Map<string, string>();
  for await (const wf of client.workflow.list({ query })) {
    const memo = (wf.memo ?? {}) as Partial<ListingMemo>;
    out.push({
      workflowId: wf.workflowId,
      type: wf.type,
      status: wf.status.name,
      startTime: wf.startTime.toISOString(),
      ...(typeof memo.summary === 'string' ? { summary: memo.summary } : {}),
      ...(typeof memo.workspace === 'string' ? { workspace: memo.workspace } : {}),
      ...(typeof memo.host === 'string' ? { host: memo.host } : {}),
    });
    if (wf.status.name === 'RUNNING') queues.set(wf.workflowId, wf.taskQueue);
    if (out.length >= SCAN) break;
  }
  out.sort((a, b) => b.startTime.localeCompare(a.startTime));
  const shown = out.slice(0, options.limit ?? 50);
  await markServed(client, shown, queues);
  await Promise.all(shown.map(async (p) => addCost(client, p)));
  return shown;
}

/**
 * Sets `served` on the running prompts shown, asking the server once per distinct task queue. When the
 * server cannot say, `served` stays unset: `list` then claims nothing either way.
 */
async function markServed(client: Client, prompts: ListedPrompt[], queues: Map<string, string>): Promise<void> {
  const polled = new Map<string, Promise<boolean | undefined>>();
  for (const p of prompts) {
    const queue = queues.get(p.workflowId);
    if (queue === undefined) continue;
    if (!polled.has(queue)) polled.set(queue, queuePolled(client, queue));
    const served = await polled.get(queue);
    if (served !== undefined) p.served = served;
  }
}

/**
 * Sets `cost` on a prompt whose counts can be read without waiting: a completed one's result, a served running
 * one's status query. Sessions, prompts from before costs were counted and the rest keep none.
 */
async function addCost(client: Client, p: ListedPrompt): Promise<void> {
  if (p.type !== 'agentPromptWorkflow') return;
  const handle = client.workflow.getHandle(p.workflowId);
  let stats: PromptStats | undefined;
  if (p.status === 'COMPLETED') stats = ((await handle.result().catch(() => undefined)) as PromptResult)?.stats;
  else if (p.served) stats = (await queryWithin(client, p.workflowId, statusQuery).catch(() => undefined))?.stats;
  if (stats?.cost) p.cost = stats.cost;
}
