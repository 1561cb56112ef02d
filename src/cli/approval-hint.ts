/**
 * What to type, from any shell, to answer a call that awaits approval. The arguments are shown
 * whole (as `followPrompt` hands them on, markers read from the store): what is approved is what runs.
 */
export function approvalHint(workflowId: string, callId: string, name: string, args: unknown): string {
  const payload = (outcome: string) => JSON.stringify({ callId, outcome });
  return [
    `? ${name} ${JSON.stringify(args)} needs approval (call ${callId}).`,
    `  approve: durable-agent approve ${workflowId} ${callId}`,
    `  deny:    durable-agent deny ${workflowId} ${callId}`,
    `  or:      temporal workflow signal --workflow-id ${workflowId} --name toolConfirmation --input ` +
      `'${payload('proceed_once')}'`,
    '',
  ].join('\n');
}
