/**
 * Workspace checkpoints as the workflow and its clients see them: the settings a prompt carries and what it records
 * per turn. Only references cross into workflow history; the files and manifests live in the transcript store
 * (src/checkpoints). Pure: no I/O.
 */

/**
 * `general.checkpointing` of the settings files. `enabled` is Gemini CLI's key (off by default there, on here: our
 * checkpoints need no git and cost a stat per unchanged file); the others are ours.
 */
export interface CheckpointSettings {
  enabled?: boolean;
  /** Paths left out besides `.gitignore`s and `.git` (`.gitignore` syntax, relative to the workspace). */
  exclude?: string[];
  /** A larger file is left out of checkpoints (and named in the manifest's `skipped`). */
  maxFileBytes?: number;
  /** Files beyond this total size are left out, in path order. */
  maxCheckpointBytes?: number;
}

/** A file-changing call of a turn, with the checkpoint taken just before it ran. */
export interface CallCheckpoint {
  callId: string;
  name: string;
  before: string;
}

/** One model turn of a prompt, as `checkpoints`, `diff`, `rewind` and `fork` read it. */
export interface TurnRecord {
  /** The prompt's own turn number (its `turns` count when the turn was taken). */
  turn: number;
  /** Where the conversation stood right after the model's answer: that message is at `length - 1`. */
  transcript: { id: string; length: number };
  /** Calls of the turn that could change files, in the order they ran. */
  calls?: CallCheckpoint[];
  /** The workspace as the turn left it: taken after its calls when one of them could change files. */
  checkpoint?: string;
}

/** A prompt's input: `general.checkpointing` of the settings (absent: checkpoints on, default caps). */
export interface CheckpointFields {
  checkpointing?: CheckpointSettings;
}

/**
 * The prompt's turns with their checkpoints, in its progress (carried whole across continue-as-new), status and
 * result; absent in prompts from before them.
 */
export interface TurnRecordFields {
  turnRecords?: TurnRecord[];
}

/** Whether checkpoints are taken: on unless the settings turn them off. */
export function checkpointsEnabled(settings: CheckpointSettings | undefined): boolean {
  return settings?.enabled !== false;
}

/**
 * The checkpoint of each turn, in order: the workspace as that turn left it. A turn that changed nothing left it as
 * the last checkpoint before it; a turn before any checkpoint left it as the first call after it found it (its
 * `before`). Undefined only when no checkpoint was ever taken around it.
 */
export function checkpointOfEachTurn(records: readonly TurnRecord[]): (string | undefined)[] {
  const out: (string | undefined)[] = [];
  let last: string | undefined;
  for (const [k, record] of records.entries()) {
    last = record.checkpoint ?? last ?? firstBefore(records.slice(k + 1));
    out.push(last);
  }
  return out;
}

function firstBefore(later: readonly TurnRecord[]): string | undefined {
  for (const record of later) {
    const before = record.calls?.[0]?.before;
    if (before) return before;
  }
  return undefined;
}
