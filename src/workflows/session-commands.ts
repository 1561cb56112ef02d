import { proxyActivities, setHandler, uuid4 } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { COMPRESSION_STATUS } from '../core/compression';
import { fireSessionHook, runHookEvent } from './hooks/runner';
import { clearSessionUpdate, compressSessionUpdate, type SessionInput } from './api';

/** What `/clear` and `/compress` change of a session's state. */
export interface SessionCommandState {
  transcript: { id: string; length: number };
  queue: unknown[];
  current?: string;
  closed: boolean;
  hookStart?: { context?: string; systemMessage?: string };
  /** A command is running: the next message waits for it. */
  busy: boolean;
}

/**
 * Chat's `/clear` and `/compress`, as updates the session runs itself (its activities are recorded in
 * its history). Only an idle session takes them: a running or queued prompt owns the transcript.
 * They appear only in sessions that received them, so older histories replay unchanged.
 */
export function registerSessionCommands(id: string, input: SessionInput, state: SessionCommandState): void {
  const validator = () => {
    if (state.closed) throw new Error('the session is closed');
    if (state.current || state.queue.length > 0 || state.busy)
      throw new Error('the session is busy: wait until its prompts have ended');
  };
  setHandler(clearSessionUpdate, () => exclusive(state, () => clear(id, input, state)), { validator });
  setHandler(compressSessionUpdate, () => exclusive(state, () => compress(id, input, state)), { validator });
}

/** Runs a session command with the session marked busy: the next message waits for it. */
export async function exclusive<T>(state: Pick<SessionCommandState, 'busy'>, run: () => Promise<T>): Promise<T> {
  state.busy = true;
  try {
    return await run();
  } finally {
    state.busy = false;
  }
}

/** Gemini CLI's `/clear`: SessionEnd (`clear`), a fresh conversation, SessionStart (`clear`) for the next prompt. */
async function clear(id: string, input: SessionInput, state: SessionCommandState): Promise<string> {
  await fireSessionHook(input.defaults, 'SessionEnd', 'clear');
  state.transcript = { id: `session/${id}/cleared-${uuid4()}`, length: 0 };
  state.hookStart = await fireSessionHook(input.defaults, 'SessionStart', 'clear');
  return state.transcript.id;
}

/** Gemini CLI's `/compress`: PreCompress (`manual`), then a forced compression of the conversation. */
async function compress(id: string, input: SessionInput, state: SessionCommandState) {
  await runHookEvent(input.defaults.hooks, 'PreCompress', 'manual', {
    fields: { trigger: 'manual' },
    workspace: input.defaults.workspace,
    heartbeatTimeoutMs: input.defaults.toolHeartbeatTimeoutMs,
  });
  const acts = proxyActivities<Activities>({ startToCloseTimeout: '10 minutes', retry: { maximumAttempts: 5 } });
  const result = await acts.compressTranscript({
    transcriptId: state.transcript.id,
    length: state.transcript.length,
    newTranscriptId: `session/${id}/compressed-${uuid4()}`,
    model: input.defaults.model,
    force: true,
    hasFailedBefore: false,
    lastPromptTokens: 0,
  });
  const replaced =
    result.status === COMPRESSION_STATUS.compressed || result.status === COMPRESSION_STATUS.contentTruncated;
  if (replaced) state.transcript = { id: result.transcriptId, length: result.newLength };
  return { status: result.status, originalTokens: result.originalTokens, newTokens: result.newTokens };
}
