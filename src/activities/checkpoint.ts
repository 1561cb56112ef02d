import { restoreWorkspace, snapshotWorkspace, statCacheDir, type RestoreResult } from '../checkpoints';
import type { CheckpointSettings } from '../core/checkpoints';
import type { TranscriptStore } from '../store/types';

export interface CheckpointInput {
  /** Real path of the workspace on this host. */
  workspace: string;
  settings?: CheckpointSettings;
}

/** The checkpoint's reference and a few counts, or why none could be taken; history holds only this. */
export type CheckpointOutput =
  | { ok: true; ref: string; files: number; hashed: number; skipped: number }
  | { ok: false; message: string };

/**
 * Takes a checkpoint of the workspace on the host that holds it (see src/checkpoints). The host's stat cache lives
 * under the agent's home, so an unchanged file costs one stat. A workspace that cannot be read is an answer, not a
 * failure: the prompt goes on without that checkpoint. Taking the same checkpoint twice (a retry after a crash)
 * stores nothing twice.
 */
export async function checkpointWorkspace(
  deps: { store: TranscriptStore; home?: string },
  input: CheckpointInput,
): Promise<CheckpointOutput> {
  const { exclude, maxFileBytes, maxCheckpointBytes } = input.settings ?? {};
  try {
    const snapshot = await snapshotWorkspace(deps.store, input.workspace, {
      exclude,
      maxFileBytes,
      maxCheckpointBytes,
      statCacheDir: deps.home ? statCacheDir(deps.home) : undefined,
    });
    const { ref, files, hashed, skipped } = snapshot;
    return { ok: true, ref, files, hashed, skipped: skipped.length };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EACCES' || code === 'ENOTDIR') {
      return { ok: false, message: `the workspace could not be read for a checkpoint: ${(err as Error).message}` };
    }
    throw err;
  }
}

export interface RestoreCheckpointInput {
  /** Real path of the workspace on this host. */
  workspace: string;
  /** The checkpoint written over it. */
  checkpoint: string;
}

/**
 * Writes checkpoint `checkpoint` over the workspace on the host that holds it (a rewind asked from another machine).
 * A retry after a crash restores the same checkpoint again: files already put back cost a stat.
 */
export async function restoreCheckpoint(
  deps: { store: TranscriptStore; home?: string },
  input: RestoreCheckpointInput,
): Promise<RestoreResult> {
  const cacheDir = deps.home ? statCacheDir(deps.home) : undefined;
  return restoreWorkspace(deps.store, input.checkpoint, input.workspace, { statCacheDir: cacheDir });
}
