import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { ApprovalMode } from '../core/types';
import { sessionStatusQuery } from '../workflows/api';
import { InputError } from './input-error';
import { startDefaults } from './session-target';
import { WORKSPACE_MEMO } from './sessions';

/** One message of a session, in the order the session runs them. */
export interface SessionPrompt {
  /** The prompt that runs (or ran) it: `follow(promptId, { cursor: 0 })` yields its whole record. */
  promptId: string;
  /** `ended`: it ran (completed, failed or cancelled); `queued`: it waits for the prompts before it. */
  state: 'ended' | 'running' | 'queued';
  /** A queued message's text (its prompt has no record yet); the others say it in their `user_prompt` event. */
  text?: string;
}

/** What an editor needs to show a session again: its workspace, whether it takes messages, its prompts. */
export interface SessionRecord {
  sessionId: string;
  workspace?: string;
  /** What the session's prompts start with: their approval mode and model. */
  approvalMode?: ApprovalMode;
  model?: string;
  /** Still takes messages (false once closed). */
  open: boolean;
  prompts: SessionPrompt[];
  /** The prompt running now, if one is. */
  running?: string;
}

/** How long the session's worker may take to answer: a closed session's answer replays its history first. */
const QUERY_DEADLINE_MS = 30_000;

/**
 * The session's prompts in order, ended, running and queued. A session's prompts are `ID-p1` …
 * `ID-pN`, numbered without gaps as the session takes messages; the session's own status query
 * says how many have ended, which runs now and which wait. Refused with an InputError for an id that
 * is no session; rejects when no worker answers for it.
 */
export async function sessionRecord(client: Client, sessionId: string): Promise<SessionRecord> {
  const handle = client.workflow.getHandle(sessionId);
  const description = await handle.describe().catch((err: unknown) => {
    if (err instanceof WorkflowNotFoundError) throw new InputError(`no session ${sessionId}`);
    throw err;
  });
  if (description.type !== 'agentSessionWorkflow') throw new InputError(`${sessionId} is not a session`);
  const status = await client.connection
    .withDeadline(Date.now() + QUERY_DEADLINE_MS, () => handle.query(sessionStatusQuery))
    .catch((err: unknown) => {
      throw new Error(`session ${sessionId} did not answer (is a worker running?): ${String(err)}`);
    });
  const ended = Array.from({ length: status.prompts }, (_, i) => sessionPromptId(sessionId, i + 1));
  const workspace = description.memo?.[WORKSPACE_MEMO];
  const defaults = await startDefaults(client, sessionId);
  return {
    sessionId,
    ...(typeof workspace === 'string' ? { workspace } : {}),
    ...(defaults?.approvalMode && { approvalMode: defaults.approvalMode }),
    ...(defaults?.model && { model: defaults.model }),
    open: description.status.name === 'RUNNING' && !status.closed,
    prompts: [
      ...ended.map((promptId) => ({ promptId, state: 'ended' as const })),
      ...(status.current ? [{ promptId: status.current, state: 'running' as const }] : []),
      ...status.queued.map((q) => ({ promptId: q.promptId, state: 'queued' as const, text: q.text })),
    ],
    ...(status.current ? { running: status.current } : {}),
  };
}

/** The id of the session's `n`th prompt (from 1). */
export function sessionPromptId(sessionId: string, n: number): string {
  return `${sessionId}-p${n}`;
}
