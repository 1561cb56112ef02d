import * as fs from 'node:fs';
import type { Client } from '@temporalio/client';
import { readManifest, restoreWorkspace, snapshotWorkspace, type RestoreResult } from '../checkpoints';
import type { RewindRecord, TranscriptRef } from '../core/rewind';
import type { TranscriptStore } from '../store/types';
import { lastRewindQuery, rewindConversationUpdate } from '../workflows/rewind-api';
import { InputError } from './input-error';
import { continuedSession } from './continued-session';
import { hostHasWorker } from './host-pollers';
import { conversationOwner, promptEnded, startDefaults, untilIdle } from './session-target';
import { turnPoint, type TravelTurns } from './turn-point';

export interface RewindOptions {
  /** The turn to go back to; absent with `undo`. */
  to?: number;
  undo?: boolean;
  filesOnly?: boolean;
  conversationOnly?: boolean;
  /**
   * The checkpoint to put the files back to instead of turn `to`'s (`/restore`: the one taken just before a call of
   * that turn); the conversation still goes back to turn `to`.
   */
  checkpoint?: string;
  /** Cancel a running prompt of the session first, and wait for it to end. */
  cancel?: boolean;
  taskQueue: string;
  /** The host's stat caches (statCacheDir of the home): unchanged files then cost a stat, not a read and a hash. */
  statCacheDir?: string;
  /**
   * The host this machine's workers serve. A session whose workspace is on another host has its files rewound there,
   * by that host's worker; absent, every workspace is taken to be on this machine.
   */
  host?: string;
}

/** What a rewind did, for the command to say. */
export interface RewindReport {
  /** The session whose next prompt continues from the rewound conversation. */
  sessionId: string;
  turn?: number;
  /** The workspace paths put back; absent when the files were left as they were. */
  files?: RestoreResult;
  conversation?: TranscriptRef;
  /** The checkpoint of the workspace taken before the rewind (what `--undo` restores). */
  checkpointBefore?: string;
}

/**
 * `rewind ID --to N` and `rewind ID --undo`. The checkpoint of the workspace as it is comes first, then the session
 * records the rewind (its conversation cut, the checkpoint kept for undo), then the files are put back: whatever
 * stops it midway, `--undo` finds what it needs in the session.
 */
export async function rewind(
  client: Client,
  store: TranscriptStore,
  turns: TravelTurns,
  options: RewindOptions,
): Promise<RewindReport> {
  checkOptions(options);
  const files = !options.conversationOnly;
  const conversation = !options.filesOnly;
  const remote = files ? await remoteHost(client, turns, options) : undefined;
  const need = { files: files && !options.checkpoint, conversation };
  const point = options.undo ? undefined : turnPoint(turns, options.to as number, need);
  const workspace = files && !remote ? localWorkspace(turns) : undefined;
  const sessionId = await idleSession(client, turns, options);
  const record = options.undo ? await lastRewind(client, sessionId) : undefined;
  const target = files ? (options.checkpoint ?? point?.checkpoint ?? record?.checkpoint) : undefined;
  const { statCacheDir } = options;
  const exclude = target ? (await readManifest(store, target)).exclude : [];
  const before =
    workspace && target ? (await snapshotWorkspace(store, workspace, { exclude, statCacheDir })).ref : undefined;
  const restore = remote && target ? { checkpoint: target, exclude } : undefined;
  const payload = updatePayload(options, conversation ? point?.transcript : undefined, before, restore);
  const done = await client.workflow.getHandle(sessionId).executeUpdate(rewindConversationUpdate, { args: [payload] });
  const local = workspace && target ? await restoreWorkspace(store, target, workspace, { statCacheDir }) : undefined;
  const restored = local ?? done.files;
  const checkpointBefore = before ?? done.checkpointBefore;
  return {
    sessionId,
    ...(options.to ? { turn: options.to } : {}),
    ...(restored ? { files: restored } : {}),
    ...(conversation || options.undo ? { conversation: done.transcript } : {}),
    ...(checkpointBefore ? { checkpointBefore } : {}),
  };
}

/** The session's update: `restore` when the files are put back on another host, by the session. */
function updatePayload(
  options: RewindOptions,
  to: TranscriptRef | undefined,
  before: string | undefined,
  restore: { checkpoint: string; exclude: string[] } | undefined,
) {
  const common = { ...(before ? { checkpoint: before } : {}), ...(restore ? { restore } : {}) };
  return options.undo ? { undo: true, ...common } : { ...(to ? { to } : {}), ...common, turn: options.to };
}

function checkOptions(options: RewindOptions): void {
  if (options.filesOnly && options.conversationOnly)
    throw new InputError('--files-only and --conversation-only exclude each other: give one of them, or neither');
  if (options.undo && options.to !== undefined) throw new InputError('give --to N or --undo, not both');
  if (!options.undo && options.to === undefined) throw new InputError('give --to N (the turn to go back to) or --undo');
}

/**
 * The host that holds the workspace when it is not this machine's (`options.host`), checked to have a worker now:
 * the restore would otherwise wait for one. Undefined when the files are rewound here (no host recorded: a prompt
 * from before hosts, or the same host).
 */
async function remoteHost(client: Client, turns: TravelTurns, options: RewindOptions): Promise<string | undefined> {
  if (!options.host) return undefined;
  const host = (await startDefaults(client, turns.id)).host;
  if (!host || host === options.host) return undefined;
  if (!(await hostHasWorker(client, options.taskQueue, host)))
    throw new InputError(
      `the workspace of ${turns.id} is on host ${host}, and no worker of ${host} is running: start one there ` +
        `(durable-agent worker --host ${host}) and rewind again; nothing was changed`,
    );
  return host;
}

/** The workspace as this machine sees it: a rewind rewrites its files here. */
function localWorkspace(turns: TravelTurns): string {
  const workspace = turns.workspace;
  if (!workspace || !fs.existsSync(workspace))
    throw new InputError(
      `the workspace of ${turns.id} (${workspace ?? 'unknown'}) is not on this machine: run rewind on its host, ` +
        'or fork the turn here (fork ID --at N --workspace DIR)',
    );
  return workspace;
}

/** The session that holds the conversation, idle; a prompt run on its own continues in a session of its own. */
async function idleSession(client: Client, turns: TravelTurns, options: RewindOptions): Promise<string> {
  const owner = await conversationOwner(client, turns.id);
  if (owner.kind === 'session') {
    await untilIdle(client, owner.id, !!options.cancel);
    return owner.id;
  }
  if (owner.running) await promptEnded(client, owner.id, !!options.cancel);
  const sessionId = await continuedSession(client, owner.id, options.taskQueue, !options.undo);
  await untilIdle(client, sessionId, !!options.cancel);
  return sessionId;
}

async function lastRewind(client: Client, sessionId: string): Promise<RewindRecord> {
  const record = await client.workflow.getHandle(sessionId).query(lastRewindQuery);
  if (!record) throw new InputError(`nothing to undo: ${sessionId} was never rewound`);
  return record;
}
