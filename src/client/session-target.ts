import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { payloadConverter } from '../payload-converter';
import type { PromptInput, SessionInput } from '../workflows/api';
import { cancelPrompt } from './agent-client';
import { InputError } from './input-error';
import { describeExecution, sessionStatus } from './status';

/** Where a conversation lives: a session, or a prompt run on its own (no session yet). */
export type ConversationOwner = { kind: 'session'; id: string } | { kind: 'prompt'; id: string; running: boolean };

/**
 * The owner of `id`'s conversation: a session's id names it, a session's prompt names its session, a prompt run
 * without `--session` is its own. Refuses an unknown id.
 */
export async function conversationOwner(client: Client, id: string): Promise<ConversationOwner> {
  const found = await describeExecution(client, id).catch((err) => {
    if (err instanceof WorkflowNotFoundError) throw new InputError(`no session or prompt ${id}`);
    throw err;
  });
  if (found.type === 'agentSessionWorkflow') {
    if (found.status !== 'RUNNING') throw new InputError(`session ${id} is closed`);
    return { kind: 'session', id };
  }
  if (found.type === 'agentPromptWorkflow' && found.parentId) return conversationOwner(client, found.parentId);
  if (found.type !== 'agentPromptWorkflow') throw new InputError(`${id} is not a session or a prompt`);
  return { kind: 'prompt', id, running: found.status === 'RUNNING' };
}

/** The session a prompt run on its own continues in once it is rewound or forked (its conversation, cut). */
export function continuationOf(promptId: string): string {
  return `${promptId}-session`;
}

/**
 * Waits until the session runs no prompt. A running one refuses the wait, or with `cancel` is cancelled first (its
 * open calls get their cancelled responses) and waited for. A prompt that has already ended is waited for too: the
 * session takes its result in a moment later.
 */
export async function untilIdle(client: Client, sessionId: string, cancel: boolean, tries = 600): Promise<void> {
  let cancelled: string | undefined;
  for (let i = 0; i < tries; i++) {
    const status = await sessionStatus(client, sessionId);
    if (!status) throw new Error(`no worker answered for session ${sessionId}: start one (durable-agent worker)`);
    if (!status.current && status.queued.length === 0) return;
    const current = status.current ?? status.queued[0].promptId;
    const running = status.current ? (await describeExecution(client, current)).status === 'RUNNING' : true;
    if (running && !cancel)
      throw new InputError(`a prompt of session ${sessionId} is running (${current}): wait until it ends, or --cancel`);
    if (running && status.current && cancelled !== current) {
      await cancelPrompt(client, current);
      cancelled = current;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`session ${sessionId} did not become idle`);
}

/** A running prompt of its own is cancelled (`cancel`) and waited for, or refuses. */
export async function promptEnded(client: Client, promptId: string, cancel: boolean): Promise<void> {
  if (!cancel) throw new InputError(`prompt ${promptId} is running: wait until it ends, or --cancel`);
  await cancelPrompt(client, promptId);
  await client.workflow
    .getHandle(promptId)
    .result()
    .catch(() => undefined);
}

/** The settings a session or a prompt started with, as a session's defaults (its conversation left out). */
export async function startDefaults(client: Client, id: string): Promise<SessionInput['defaults']> {
  const history = await client.workflow.getHandle(id).fetchHistory();
  const payload = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
  if (!payload) throw new Error(`the history of ${id} holds no input`);
  const input = payloadConverter.fromPayload(payload) as (PromptInput & Partial<SessionInput>) | SessionInput;
  if ('defaults' in input && input.defaults) return input.defaults;
  const prompt = input as PromptInput;
  const omit = new Set(['prompt', 'transcript', 'resume', 'hookContext', 'hookSystemMessage', 'hookState', 'parent']);
  return Object.fromEntries(
    Object.entries(prompt).filter(([key]) => !omit.has(key)),
  ) as unknown as SessionInput['defaults'];
}
