import { WorkflowFailedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { checkpointOfEachTurn, type TurnRecord } from '../core/checkpoints';
import { statusQuery, type PromptResult } from '../workflows/api';
import { queryWithin } from './connection';
import { WORKSPACE_MEMO } from './sessions';

/** One turn of a session, numbered from 1 across its prompts (a prompt run alone is its own session). */
export interface TurnView {
  turn: number;
  promptId: string;
  /** The turn's number within its prompt (what the prompt's own `status` counts). */
  promptTurn: number;
  /** Where the conversation stood right after the turn's model answer (its message at `length - 1`). */
  transcript: { id: string; length: number };
  /** The workspace as the turn left it (carried forward over turns that changed nothing). */
  checkpoint?: string;
  /** Which call changed what: the diff from `before` to `after` is that call's (it ran alone in its wave). */
  calls: { callId: string; name: string; before: string; after?: string }[];
}

export interface SessionTurns {
  id: string;
  /** The workspace the session (or the prompt) works in, as its memo names it; absent in runs from before the memo. */
  workspace?: string;
  /** The prompts read, in order; a prompt from before turn records has no turns here. */
  prompts: string[];
  turns: TurnView[];
}

/**
 * The turns of a session (`id` a session's) or of a prompt run alone, with their checkpoints and calls, read from
 * each prompt's result, failure or status query. A session's prompts are `<id>-p1`, `<id>-p2`, ... in order.
 */
export async function sessionTurns(client: Client, id: string): Promise<SessionTurns> {
  const description = await client.workflow.getHandle(id).describe();
  const workspace = description.memo?.[WORKSPACE_MEMO];
  const prompts = description.type === 'agentSessionWorkflow' ? await sessionPrompts(client, id) : [id];
  const records: { promptId: string; record: TurnRecord }[] = [];
  for (const promptId of prompts) {
    for (const record of await promptTurnRecords(client, promptId)) records.push({ promptId, record });
  }
  const refs = checkpointOfEachTurn(records.map((r) => r.record));
  const turns = records.map(({ promptId, record }, k) => ({
    turn: k + 1,
    promptId,
    promptTurn: record.turn,
    transcript: record.transcript,
    ...(refs[k] ? { checkpoint: refs[k] } : {}),
    calls: callsOf(record),
  }));
  return { id, ...(typeof workspace === 'string' ? { workspace } : {}), prompts, turns };
}

function callsOf(record: TurnRecord): TurnView['calls'] {
  const calls = record.calls ?? [];
  return calls.map((call, k) => {
    const after = calls[k + 1]?.before ?? record.checkpoint;
    return { ...call, ...(after ? { after } : {}) };
  });
}

async function sessionPrompts(client: Client, sessionId: string): Promise<string[]> {
  const ids: string[] = [];
  for (let n = 1; ; n++) {
    const promptId = `${sessionId}-p${n}`;
    const found = await client.workflow
      .getHandle(promptId)
      .describe()
      .then(
        () => true,
        (err: unknown) => {
          if (err instanceof WorkflowNotFoundError) return false;
          throw err;
        },
      );
    if (!found) return ids;
    ids.push(promptId);
  }
}

/** A prompt's turn records: its result, its failure's details, or (running, cancelled) its status query. */
async function promptTurnRecords(client: Client, promptId: string): Promise<TurnRecord[]> {
  const handle = client.workflow.getHandle(promptId);
  const status = (await handle.describe()).status.name;
  if (status === 'COMPLETED') return ((await handle.result()) as PromptResult).turnRecords ?? [];
  if (status === 'FAILED') {
    const details = await handle.result().then(
      () => undefined,
      (err: unknown) => {
        const cause = err instanceof WorkflowFailedError ? err.cause : undefined;
        return cause instanceof ApplicationFailure ? (cause.details?.[0] as Partial<PromptResult>) : undefined;
      },
    );
    if (details?.turnRecords) return details.turnRecords;
  }
  return (await queryWithin(client, promptId, statusQuery))?.turnRecords ?? [];
}
