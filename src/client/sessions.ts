import type { Client } from '@temporalio/client';

/** The memo key a session is started with, so `--resume latest` can find a workspace's sessions by listing. */
export const WORKSPACE_MEMO = 'workspace';

/**
 * The most recent running session whose workspace is `workspace` (Gemini CLI's
 * `--resume latest`). Sessions started before the memo existed carry none and are not found.
 */
export async function latestSession(client: Client, workspace: string, scan = 200): Promise<string | undefined> {
  let seen = 0;
  let best: { id: string; started: number } | undefined;
  const query = "WorkflowType = 'agentSessionWorkflow' AND ExecutionStatus = 'Running'";
  for await (const wf of client.workflow.list({ query })) {
    if (++seen > scan) break;
    if (wf.memo?.[WORKSPACE_MEMO] !== workspace) continue;
    // The start of the current run: a session continued as new counts as recently used.
    const started = wf.startTime.getTime();
    if (!best || started > best.started) best = { id: wf.workflowId, started };
  }
  return best?.id;
}
