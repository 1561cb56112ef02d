/**
 * Workspace checkpoints: snapshots of a workspace's files into the transcript store, restored byte for byte and
 * compared. Host-side code (it reads and writes the workspace); the workflow only ever holds the references.
 */
export { snapshotWorkspace, type Snapshot, type SnapshotOptions } from './snapshot';
export { DEFAULT_MAX_CHECKPOINT_BYTES, DEFAULT_MAX_FILE_BYTES } from './snapshot';
export { restoreWorkspace, type RestoreResult } from './restore';
export { diffCheckpoints, type CheckpointDiff } from './diff';
export { compareManifests, type Manifest, type ManifestChanges, type SkipReason } from './manifest';
export { readManifest } from './read';
export { statCacheDir } from './stat-cache';
