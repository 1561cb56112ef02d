import { WithStartWorkflowOperation, type Client, type WorkflowHandle } from '@temporalio/client';
import { KIND_ATTRIBUTE, STATUS_ATTRIBUTE, WAITING_STATUSES } from '../core/search-attributes';
import type { agentPromptWorkflow, agentSessionWorkflow } from '../workflows';
import {
  confirmToolCallUpdate,
  submitAnswerUpdate,
  type PromptInput,
  type ToolConfirmation,
  clearSessionUpdate,
  closeSessionSignal,
  compressSessionUpdate,
  compressSignal,
  loopDecisionSignal,
  sendMessageUpdate,
  setApprovalModeSignal,
  topUpBudgetSignal,
  type LoopDecision,
  type SessionInput,
} from '../workflows/api';
import { hasAgentSearchAttributes } from './connection';
import { WORKSPACE_MEMO } from './sessions';
import { oneLine, promptMemo, sessionSummary } from '../workflows/state/summaries';
import type { QuestionAnswerPayload } from '../core/questions';
import { wedgedReason } from './troubles';
import { echo } from '../core/message-input';
import type { ApprovalMode } from '../core/types';
import type { MessageMedia } from '../core/media';

/** Starts one prompt; the client only starts workflows and sends messages. */
export async function startPrompt(
  client: Client,
  input: PromptInput,
  options: { taskQueue: string; workflowId: string },
): Promise<WorkflowHandle<typeof agentPromptWorkflow>> {
  const searchAttributes = await hasAgentSearchAttributes(client);
  return client.workflow.start<typeof agentPromptWorkflow>('agentPromptWorkflow', {
    taskQueue: options.taskQueue,
    workflowId: options.workflowId,
    args: [{ ...input, searchAttributes }],
    // The Web UI's one line about the prompt: its first line; `list` reads the same from the memo.
    staticSummary: oneLine(input.prompt),
    memo: { ...promptMemo(input) },
    typedSearchAttributes: searchAttributes
      ? [
          { key: STATUS_ATTRIBUTE, value: 'running' },
          { key: KIND_ATTRIBUTE, value: 'prompt' },
        ]
      : undefined,
  });
}

/**
 * Adds a message to a session, starting the session if it does not exist yet (update-with-start),
 * and returns the id of the prompt that will run it.
 */
export async function sendToSession(
  client: Client,
  sessionId: string,
  text: string,
  options: {
    taskQueue: string;
    defaults?: SessionInput['defaults'];
    steer?: boolean;
    maxCostUsd?: number;
    model?: string;
    media?: MessageMedia[];
  },
): Promise<string> {
  // `maxCostUsd` sets the session's spending limit; the session refuses one below what its prompts spent.
  const message = {
    text,
    ...(options.maxCostUsd !== undefined ? { maxCostUsd: options.maxCostUsd } : {}),
    ...(options.model !== undefined ? { model: options.model } : {}),
    ...(options.media?.length ? { media: options.media } : {}),
  };
  if (!options.defaults)
    return client.workflow
      .getHandle(sessionId)
      .executeUpdate(sendMessageUpdate, { args: [{ ...message, steer: options.steer }] });
  const start = new WithStartWorkflowOperation<typeof agentSessionWorkflow>('agentSessionWorkflow', {
    workflowId: sessionId,
    taskQueue: options.taskQueue,
    args: [{ defaults: options.defaults }],
    memo: { [WORKSPACE_MEMO]: options.defaults.workspace, summary: sessionSummary(options.defaults.workspace) },
    staticSummary: sessionSummary(options.defaults.workspace),
    workflowIdConflictPolicy: 'USE_EXISTING',
    // A closed session's id is not reused: a new run would start an empty conversation on its transcript.
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
  });
  return client.workflow.executeUpdateWithStart(sendMessageUpdate, { args: [message], startWorkflowOperation: start });
}

/** Chat's `/clear` on an idle session: a fresh conversation, the session goes on (SessionEnd/SessionStart `clear`). */
export async function clearSession(client: Client, sessionId: string): Promise<void> {
  await client.workflow.getHandle(sessionId).executeUpdate(clearSessionUpdate);
}

/** Chat's `/compress` on an idle session: the session compresses its conversation (an activity of its own). */
export function compressSession(client: Client, sessionId: string) {
  return client.workflow.getHandle(sessionId).executeUpdate(compressSessionUpdate);
}

/** Lets the session's queued messages run, then ends it. */
export async function closeSession(client: Client, sessionId: string): Promise<void> {
  await client.workflow.getHandle(sessionId).signal(closeSessionSignal);
}

/**
 * Decides a call awaiting approval; resolves to the workflow's receipt. The update's validator
 * refuses an unknown or already decided call at once (WorkflowUpdateFailedError).
 */
export function confirmToolCall(client: Client, workflowId: string, confirmation: ToolConfirmation): Promise<string> {
  return client.workflow
    .getHandle(workflowId)
    .executeUpdate(confirmToolCallUpdate, { args: [confirmation] })
    .catch(async (err: unknown) => {
      // A wedged prompt refuses every update with a bare "Workflow Update failed": say what fails instead.
      const wedged = await wedgedReason(client, workflowId);
      throw wedged ? new Error(`call ${echo(confirmation.callId)} was not decided: ${wedged}`) : err;
    });
}

/**
 * Answers an `ask_user` call; resolves to the workflow's receipt. The update's validator refuses an
 * unknown, already answered or misshapen answer at once (WorkflowUpdateFailedError).
 */
export function answerQuestion(client: Client, workflowId: string, answer: QuestionAnswerPayload): Promise<string> {
  return client.workflow.getHandle(workflowId).executeUpdate(submitAnswerUpdate, { args: [answer] });
}

/** Compresses the prompt's conversation before its next model request. */
export async function requestCompression(client: Client, workflowId: string): Promise<void> {
  await client.workflow.getHandle(workflowId).signal(compressSignal);
}

/**
 * The answer to a prompt paused on a spent token budget or on its spending limit: more tokens, more US dollars, or
 * stop as it stands.
 */
export type BudgetAnswer = 'stop' | { tokens: number } | { usd: number };

export async function topUpBudget(client: Client, workflowId: string, answer: BudgetAnswer): Promise<void> {
  await client.workflow.getHandle(workflowId).signal(topUpBudgetSignal, answer);
}

/** The answer to a prompt paused on a detected loop. */
export async function decideLoop(client: Client, workflowId: string, action: LoopDecision): Promise<void> {
  await client.workflow.getHandle(workflowId).signal(loopDecisionSignal, { action });
}

/** Switches a running prompt's approval mode (as `exit_plan_mode` does); it applies to the calls decided next. */
export async function setApprovalMode(client: Client, workflowId: string, mode: ApprovalMode): Promise<void> {
  await client.workflow.getHandle(workflowId).signal(setApprovalModeSignal, { mode });
}

export async function cancelPrompt(client: Client, workflowId: string): Promise<void> {
  await client.workflow.getHandle(workflowId).cancel();
}

/** Ends a prompt at once, with no worker needed: nothing runs its ending (open calls get no response). */
export async function terminatePrompt(client: Client, workflowId: string): Promise<void> {
  await client.workflow.getHandle(workflowId).terminate('terminated with the terminate command');
}

/** Ids of running prompts with a call awaiting approval or an answer (all running prompts without the attributes). */
export async function promptsAwaitingApproval(client: Client, limit = 200): Promise<string[]> {
  const query = (await hasAgentSearchAttributes(client))
    ? `${STATUS_ATTRIBUTE.name} IN (${WAITING_STATUSES.map((s) => `'${s}'`).join(', ')}) AND ExecutionStatus = 'Running'`
    : "WorkflowType = 'agentPromptWorkflow' AND ExecutionStatus = 'Running'";
  const ids: string[] = [];
  for await (const wf of client.workflow.list({ query })) {
    ids.push(wf.workflowId);
    if (ids.length >= limit) break;
  }
  return ids;
}
