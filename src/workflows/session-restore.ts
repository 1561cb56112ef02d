import { ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { HostFields } from '../core/host-routing';
import type { HostRestore } from '../core/rewind';
import { onHost } from './state/host-queue';

/** The session's workspace and the host that holds it (its defaults). */
export type RewindWhere = HostFields & { workspace?: string };

/**
 * A rewind's files on the workspace's host, for a client on another machine: the activities run on the host's queue
 * and wait there while its worker is away (the client checks one polls before it asks). Taking a checkpoint again
 * stores nothing twice and restoring again rewrites nothing, so both are retried after a crash.
 */
function hostActivities(where: RewindWhere) {
  return proxyActivities<Activities>({
    ...onHost(where),
    startToCloseTimeout: '10 minutes',
    retry: { initialInterval: '1 second', maximumAttempts: 5 },
  });
}

/** The checkpoint of the workspace as it is, with the restored checkpoint's exclude list; what undo restores. */
export async function beforeOnHost(where: RewindWhere, restore: HostRestore): Promise<string> {
  const workspace = where.workspace as string;
  const settings = restore.exclude ? { exclude: restore.exclude } : undefined;
  const taken = await hostActivities(where).checkpointWorkspace({ workspace, ...(settings ? { settings } : {}) });
  if (!taken.ok) throw ApplicationFailure.nonRetryable(`nothing was rewound: ${taken.message}`, 'RewindRefused');
  return taken.ref;
}

/** Checkpoint `restore.checkpoint` written over the workspace on its host. */
export async function restoreOnHost(where: RewindWhere, restore: HostRestore) {
  return hostActivities(where).restoreCheckpoint({
    workspace: where.workspace as string,
    checkpoint: restore.checkpoint,
  });
}
