import type { AgentEvent } from '../core/events';
import { selfCommand, temporalCommand } from '../runtime/self-command';

/**
 * What to type, from any shell, to answer a call that awaits approval. The arguments are shown
 * whole (as `printFollowed` hands them on, markers read from the store): what is approved is what runs.
 */
export function approvalHint(workflowId: string, callId: string, name: string, args: unknown): string {
  const how = approvalCommands(workflowId, callId);
  return [
    `? ${name} ${JSON.stringify(args)} needs approval (call ${callId}).`,
    `  approve: ${how.approve}`,
    `  deny:    ${how.deny}`,
    `  or:      ${how.signal}`,
    `  ${WAITS}`,
    '',
  ].join('\n');
}

/**
 * Unlike Gemini CLI's headless mode, which never offers the tools that would ask, a run waits for
 * the answer: a script moved over from `gemini -p` must be told so rather than hang in silence.
 */
export const WAITS =
  'The prompt waits, durably, until one of these answers it (--approval-timeout SECONDS denies it after that ' +
  'long; --approval-mode auto_edit or yolo would not have asked).';

/** The commands that answer one call: ours, and the stock Temporal CLI's signal. */
export function approvalCommands(workflowId: string, callId: string) {
  const payload = JSON.stringify({ callId, outcome: 'proceed_once' });
  const self = selfCommand();
  return {
    approve: `${self} approve ${workflowId} ${callId}`,
    deny: `${self} deny ${workflowId} ${callId}`,
    signal: `${temporalCommand()} workflow signal --workflow-id ${workflowId} --name toolConfirmation --input '${payload}'`,
  };
}

/** Gemini CLI's `error` event (a warning, which its consumers already show), with how to answer. */
export function awaitingApprovalLine(
  e: Extract<AgentEvent, { type: 'tool_call_awaiting_approval' }>,
  workflowId: string,
) {
  const message = `${e.name} (call ${e.callId}) awaits approval. ${WAITS}`;
  const approval = { tool_id: e.callId, tool_name: e.name, parameters: e.args };
  return {
    type: 'error',
    severity: 'warning',
    message,
    approval: { ...approval, ...approvalCommands(workflowId, e.callId) },
  };
}
