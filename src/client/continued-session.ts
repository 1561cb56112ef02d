import { WorkflowFailedError, type Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { TranscriptRef } from '../core/rewind';
import type { PromptResult, SessionInput } from '../workflows/api';
import type { agentSessionWorkflow } from '../workflows';
import { sessionSummary } from '../workflows/state/summaries';
import { InputError } from './input-error';
import { WORKSPACE_MEMO } from './sessions';
import { continuationOf, conversationOwner, startDefaults } from './session-target';

/**
 * The session a prompt run on its own continues in after a rewind: started by the first rewind with the prompt's
 * settings and whole conversation (so `--undo` can put all of it back), found again by the next.
 */
export async function continuedSession(
  client: Client,
  promptId: string,
  taskQueue: string,
  create: boolean,
): Promise<string> {
  const id = continuationOf(promptId);
  const found = await conversationOwner(client, id).catch(() => undefined);
  if (found?.kind === 'session') return id;
  if (!create) throw new InputError(`nothing to undo: ${promptId} was never rewound`);
  const transcript = await finalTranscript(client, promptId);
  await startSession(client, id, await startDefaults(client, promptId), taskQueue, transcript);
  return id;
}

/** Starts a session with `defaults` whose conversation continues `transcript` (none: a new conversation). */
export async function startSession(
  client: Client,
  id: string,
  defaults: SessionInput['defaults'],
  taskQueue: string,
  transcript?: TranscriptRef,
): Promise<void> {
  await client.workflow.start<typeof agentSessionWorkflow>('agentSessionWorkflow', {
    workflowId: id,
    taskQueue,
    args: [{ defaults, ...(transcript ? { transcript } : {}) }],
    memo: { [WORKSPACE_MEMO]: defaults.workspace, summary: sessionSummary(defaults.workspace) },
    staticSummary: sessionSummary(defaults.workspace),
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
  });
}

/** Where a finished prompt left its conversation (a failed prompt says so in its failure's details). */
async function finalTranscript(client: Client, promptId: string): Promise<TranscriptRef | undefined> {
  try {
    return ((await client.workflow.getHandle(promptId).result()) as PromptResult).transcript;
  } catch (err) {
    const cause = err instanceof WorkflowFailedError ? err.cause : undefined;
    if (cause instanceof ApplicationFailure) return (cause.details?.[0] as Partial<PromptResult>)?.transcript;
    return undefined;
  }
}
