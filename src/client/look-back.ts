import { diffCheckpoints, type CheckpointDiff } from '../checkpoints';
import type { TranscriptStore } from '../store/types';
import { numberedTurn, type TravelTurns } from './turn-point';

/** One call's changes to the workspace, as its checkpoints before and after it tell them. */
export interface CallChanges {
  callId: string;
  name: string;
  added: string[];
  modified: string[];
  deleted: string[];
}

/** A turn as `checkpoints` lists it: its checkpoint, and what each of its calls changed. */
export interface TurnChanges {
  turn: number;
  promptId: string;
  checkpoint?: string;
  calls: CallChanges[];
}

/** Every turn of `turns` with what each of its file-changing calls added, modified and deleted. */
export async function turnChanges(store: TranscriptStore, turns: TravelTurns): Promise<TurnChanges[]> {
  const listed: TurnChanges[] = [];
  for (const turn of turns.turns) {
    const calls: CallChanges[] = [];
    for (const call of turn.calls) {
      if (!call.after) continue;
      const { added, modified, deleted } = await diffCheckpoints(store, call.before, call.after);
      calls.push({ callId: call.callId, name: call.name, added, modified, deleted });
    }
    listed.push({ turn: turn.turn, promptId: turn.promptId, checkpoint: turn.checkpoint, calls });
  }
  return listed;
}

/**
 * Turn `n`'s changes as unified diffs: from the workspace its first file-changing call found to the one the turn
 * left (shell commands' changes included: they are in the checkpoints). A turn that changed nothing has no changes.
 */
export async function turnDiff(
  store: TranscriptStore,
  turns: TravelTurns,
  n: number,
): Promise<CheckpointDiff & { turn: number }> {
  const turn = numberedTurn(turns, n);
  const start = turn.calls[0]?.before;
  if (!start || !turn.checkpoint) return { turn: n, added: [], modified: [], deleted: [], patches: [] };
  return { turn: n, ...(await diffCheckpoints(store, start, turn.checkpoint, { text: true })) };
}
