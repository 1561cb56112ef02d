import { proxyActivities, setHandler, uuid4 } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { parseRewind, type RewindRecord, type TranscriptRef } from '../core/rewind';
import { lastRewindQuery, rewindConversationUpdate, type RewoundConversation } from './rewind-api';
import { beforeOnHost, restoreOnHost, type RewindWhere } from './session-restore';
import { exclusive } from './session-commands';

/** What a rewind changes of a session's state. */
export interface SessionRewindState {
  transcript: TranscriptRef;
  queue: unknown[];
  current?: string;
  closed: boolean;
  busy: boolean;
  /** The last rewind, for `--undo`; carried across continue-as-new. */
  lastRewind?: RewindRecord;
}

/**
 * `rewind`'s conversation half, as an update the session runs itself: its next prompt starts from the cut. Only an
 * idle session takes it (the client cancels a running prompt first when asked to). The store's transcripts are never
 * rewritten: the cut is a new transcript holding the first messages. The update's activity appears only in sessions
 * that receive it, so older histories replay unchanged.
 */
export function registerRewind(id: string, state: SessionRewindState, where: RewindWhere): void {
  const validator = (payload: unknown) => {
    if (state.closed) throw new Error('the session is closed');
    if (state.current || state.queue.length > 0 || state.busy)
      throw new Error(
        `a prompt of the session is running${state.current ? ` (${state.current})` : ''}: ` +
          'wait until it ends, or rewind with --cancel',
      );
    const request = parseRewind(payload);
    if ('undo' in request && !state.lastRewind) throw new Error('nothing to undo: the session was never rewound');
    if (request.restore && (!where.host || !where.workspace))
      throw new Error("the session's workspace has no host: rewind its files on the machine that holds them");
  };
  setHandler(lastRewindQuery, () => state.lastRewind ?? null);
  setHandler(rewindConversationUpdate, (payload) => exclusive(state, () => rewind(id, state, where, payload)), {
    validator,
  });
}

/**
 * With `restore`, the checkpoint of the files as they are comes first and is recorded with the rewind before the
 * files are put back, as the client does on the workspace's own machine: whatever stops it midway, undo finds it.
 */
async function rewind(
  id: string,
  state: SessionRewindState,
  where: RewindWhere,
  payload: unknown,
): Promise<RewoundConversation> {
  const request = parseRewind(payload);
  const before = state.transcript;
  const checkpoint = request.restore ? await beforeOnHost(where, request.restore) : request.checkpoint;
  const taken = request.restore ? { checkpointBefore: checkpoint } : {};
  const files = async () => (request.restore ? { files: await restoreOnHost(where, request.restore) } : {});
  if ('undo' in request) {
    const undone = state.lastRewind as RewindRecord;
    state.lastRewind = { transcript: before, ...(checkpoint ? { checkpoint } : {}) };
    state.transcript = undone.transcript;
    return { transcript: state.transcript, before, undone, ...taken, ...(await files()) };
  }
  if (request.to) {
    const acts = proxyActivities<Activities>({ startToCloseTimeout: '5 minutes', retry: { maximumAttempts: 10 } });
    const newTranscriptId = `session/${id}/rewound-${uuid4()}`;
    state.transcript = await acts.cutTranscript({ from: request.to, newTranscriptId });
  }
  state.lastRewind = {
    transcript: before,
    ...(checkpoint ? { checkpoint } : {}),
    ...(request.turn ? { turn: request.turn } : {}),
  };
  return { transcript: state.transcript, before, ...taken, ...(await files()) };
}
