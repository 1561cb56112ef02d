import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { RewindRecord, TranscriptRef } from '../core/rewind';
import type { SessionInput } from './api';

/** A session's rewind messages, shared by the workflow and the client. */

/**
 * What `rewindConversation` did: the conversation now, the one before, and for an undo the rewind it undid; with
 * `restore`, the checkpoint taken on the workspace's host before it and the files it put back.
 */
export interface RewoundConversation {
  transcript: TranscriptRef;
  before: TranscriptRef;
  undone?: RewindRecord;
  checkpointBefore?: string;
  files?: Awaited<ReturnType<Activities['restoreCheckpoint']>>;
}

/** `rewind`'s conversation half on an idle session (payload: core/rewind.ts); `{"undo": true}` puts it back. */
export const rewindConversationUpdate = defineUpdate<RewoundConversation, [unknown]>('rewindConversation');

/** The session's last rewind (what `rewind --undo` puts back), or null when it was never rewound. */
export const lastRewindQuery = defineQuery<RewindRecord | null>('lastRewind');

/** A session's input with what it carries of its rewinds across continue-as-new (older inputs have none). */
export type RewindableSessionInput = SessionInput & { lastRewind?: RewindRecord };
