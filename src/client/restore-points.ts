import { InputError } from './input-error';
import type { TravelTurns } from './turn-point';

/** A tool call `/restore` can go back to: a file-changing call, with the checkpoint taken just before it ran. */
export interface RestorePoint {
  /** `<turn>.<k>-<tool>`: the k-th file-changing call of the turn (what `/restore` lists and takes). */
  name: string;
  turn: number;
  callId: string;
  tool: string;
  /** The workspace as the call found it. */
  before: string;
}

/** Every checkpointed call of the session, in the order they ran. */
export function restorePoints(turns: TravelTurns): RestorePoint[] {
  return turns.turns.flatMap((turn) =>
    turn.calls.map((call, k) => ({
      name: `${turn.turn}.${k + 1}-${call.name}`,
      turn: turn.turn,
      callId: call.callId,
      tool: call.name,
      before: call.before,
    })),
  );
}

/** The call `name` names: its listed name, its `<turn>.<k>` or its call id; a refusal that says where to look. */
export function restorePoint(turns: TravelTurns, name: string): RestorePoint {
  const points = restorePoints(turns);
  const found = points.find((p) => p.name === name || p.name.split('-')[0] === name || p.callId === name);
  if (!found)
    throw new InputError(
      points.length === 0
        ? `no restorable tool calls in ${turns.id}: no call has changed files yet`
        : `no checkpointed tool call ${JSON.stringify(name)} in ${turns.id}: /restore lists them`,
    );
  return found;
}
