/** What to type, from any shell, to answer a call that awaits approval. */
export function approvalHint(workflowId: string, callId: string, name: string, args: unknown): string {
  const payload = (outcome: string) => JSON.stringify({ callId, outcome });
  return [
    `? ${name} ${JSON.stringify(args).slice(0, 300)} needs approval (call ${callId}).`,
    `  approve: durable-agent approve ${workflowId} ${callId}`,
    `  deny:    durable-agent deny ${workflowId} ${callId}`,
    `  or:      temporal workflow signal --workflow-id ${workflowId} --name toolConfirmation --input '${payload('proceed_once')}'`,
    '',
  ].join('\n');
}
