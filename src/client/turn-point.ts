import type { TranscriptRef } from '../core/rewind';
import { InputError } from './input-error';

/** What going back to a turn needs of it (the checkpoints' listing of a session's turns gives it). */
export interface TravelTurn {
  /** Numbered from 1 across the session's prompts. */
  turn: number;
  promptId: string;
  /** Where the conversation stood right after the turn's model answer. */
  transcript?: TranscriptRef;
  /** The workspace as the turn left it. */
  checkpoint?: string;
  calls: { callId: string; name: string; before: string; after?: string }[];
}

export interface TravelTurns {
  id: string;
  workspace?: string;
  turns: TravelTurn[];
}

/** Turn `n` of `turns` and what to go back to: its checkpoint and conversation, as asked. */
export interface TurnPoint {
  turn: TravelTurn;
  checkpoint?: string;
  transcript?: TranscriptRef;
}

/**
 * Turn `n` with the checkpoint of the workspace as it left it and where its conversation stood. A turn before any
 * file-changing call has no checkpoint of its own: the workspace it left is the one the first later call found (its
 * `before`). Refuses a number out of range, and a turn without what the caller needs, in words a person can act on.
 */
export function turnPoint(turns: TravelTurns, n: number, need: { files: boolean; conversation: boolean }): TurnPoint {
  const turn = numberedTurn(turns, n);
  const checkpoint = turn.checkpoint ?? firstLaterBefore(turns.turns, n);
  if (need.files && !checkpoint)
    throw new InputError(
      `turn ${n} of ${turns.id} has no checkpoint: no call changed files in or after it, or checkpointing was off ` +
        '(rewind its conversation alone with --conversation-only)',
    );
  if (need.conversation && !turn.transcript)
    throw new InputError(
      `turn ${n} of ${turns.id} has no recorded conversation position (it ran before checkpoints existed): ` +
        'rewind its files alone with --files-only',
    );
  return { turn, checkpoint, transcript: turn.transcript };
}

function firstLaterBefore(turns: TravelTurn[], n: number): string | undefined {
  return turns.find((t) => t.turn > n && t.calls.length > 0)?.calls[0].before;
}

/** Turn `n`, or a refusal that says which turns there are. */
export function numberedTurn(turns: TravelTurns, n: number): TravelTurn {
  const last = turns.turns.at(-1)?.turn;
  if (last === undefined) throw new InputError(`${turns.id} has no turns yet`);
  const turn = turns.turns.find((t) => t.turn === n);
  if (!turn) throw new InputError(`turn ${n} is out of range: ${turns.id} has turns 1 to ${last}`);
  return turn;
}
