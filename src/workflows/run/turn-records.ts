import type { CallCheckpoint, TurnRecord } from '../../core/checkpoints';
import type { PromptState } from '../state/prompt-state';

/**
 * The prompt's turn records (what `checkpoints`, `diff`, `rewind` and `fork` read), written only here. They are part
 * of the progress, so they are carried whole across continue-as-new and reported by the status query and the result.
 * Only references and positions: a record is some 100 bytes, plus some 100 per file-changing call.
 */

/** A model turn was taken: its number and where the conversation stands right after its answer. */
export function openTurnRecord(state: PromptState, transcript: TurnRecord['transcript']): void {
  const records = (state.progress.turnRecords ??= []);
  records.push({ turn: state.progress.turns, transcript: { ...transcript } });
}

/** The record of the turn in flight, if it has one (runs from before records have none). */
function current(state: PromptState): TurnRecord | undefined {
  const records = state.progress.turnRecords;
  const last = records?.[records.length - 1];
  return last && last.turn === state.progress.turns ? last : undefined;
}

/** A call that may change files is about to run; `before` is the checkpoint taken just now. */
export function recordCallCheckpoint(state: PromptState, call: CallCheckpoint): void {
  const record = current(state);
  if (record) record.calls = [...(record.calls ?? []), call];
}

/** The turn's calls are answered; `ref` is the workspace as they left it. */
export function recordTurnCheckpoint(state: PromptState, ref: string): void {
  const record = current(state);
  if (record) record.checkpoint = ref;
}

/** Whether a call of the turn in flight took a checkpoint before it ran (so the turn takes one at its end). */
export function turnTookCheckpoints(state: PromptState): boolean {
  return (current(state)?.calls?.length ?? 0) > 0;
}
