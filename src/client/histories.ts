import type { Client } from '@temporalio/client';
import type { HistoryAndWorkflowId } from '@temporalio/client';

/** The workflow types this project runs: a replay check downloads only theirs. */
export const AGENT_WORKFLOW_TYPES = ['agentPromptWorkflow', 'subagentWorkflow', 'agentSessionWorkflow'] as const;

/**
 * The histories of the agent's workflows started since `since` (open and closed), as the server holds
 * them, for replaying against other workflow code (`durable-agent replay-check`).
 */
export function recentHistories(client: Client, since: Date): AsyncIterable<HistoryAndWorkflowId> {
  const types = AGENT_WORKFLOW_TYPES.map((t) => `'${t}'`).join(', ');
  const query = `StartTime > '${since.toISOString()}' AND WorkflowType IN (${types})`;
  return client.workflow.list({ query }).intoHistories();
}
