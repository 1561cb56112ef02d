import type { Client, WorkflowExecutionDescription } from '@temporalio/client';
import { echo } from '../core/message-input';

/**
 * What went wrong with a prompt, from its history, for messages that would otherwise only say that a
 * query or an update failed. A prompt is wedged when it runs but every workflow task of it fails: no
 * query or update can be answered then, although a worker is up and polling.
 */

/** The latest workflow task failure of a running prompt whose current task has failed before; else undefined. */
export async function wedgedReason(
  client: Client,
  workflowId: string,
  description?: WorkflowExecutionDescription,
): Promise<string | undefined> {
  const handle = client.workflow.getHandle(workflowId);
  const described = description ?? (await handle.describe().catch(() => undefined));
  const attempt = described?.raw.pendingWorkflowTask?.attempt ?? 0;
  if (described?.status.name !== 'RUNNING' || attempt < 2) return undefined;
  const history = await handle.fetchHistory().catch(() => undefined);
  const failed = (history?.events ?? []).filter((e) => e.workflowTaskFailedEventAttributes).at(-1);
  const message = failed?.workflowTaskFailedEventAttributes?.failure?.message;
  if (!message) return undefined;
  return `the prompt's workflow task fails (attempt ${attempt}): ${echo(message, 300)}`;
}

/** Who terminated a prompt and why, from the last event of its history. */
export async function terminationOf(client: Client, workflowId: string): Promise<string> {
  const history = await client.workflow
    .getHandle(workflowId)
    .fetchHistory()
    .catch(() => undefined);
  const terminated = history?.events?.at(-1)?.workflowExecutionTerminatedEventAttributes;
  const by = terminated?.identity ? ` by ${echo(terminated.identity)}` : '';
  const reason = terminated?.reason ? `: ${echo(terminated.reason, 300)}` : ' (no reason given)';
  return `the prompt was terminated${by}${reason}`;
}
