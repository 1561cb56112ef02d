import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import { FAILURES } from '../../core/failures';
import type { PromptRun } from '../run/prompt-run';
import { emit } from '../run/records';
import type { Cursor } from '../api';
import { endWithRecord, type Ending } from './settle';
import { isPatched, PATCHES } from '../patches';

/** The message Gemini CLI (`continueOnFailedApiCall`) sent once after a turn that stayed invalid. */
export const INVALID_STREAM_CONTINUE_TEXT = 'System: Please continue.';

/**
 * A model turn failed. When it failed as an invalid answer (`ModelCall.InvalidStream`), the prompt goes on once with
 * `System: Please continue.` added to the message that was sent; if the turn that carried it is invalid too, the
 * prompt ends with that failure, its pending message recorded so the transcript keeps everything sent. Whether the
 * continuation was already sent is read from the message itself, so it holds across continue-as-new. Any other
 * failure is thrown again.
 */
export async function continueAfterInvalidStream(run: PromptRun, err: unknown): Promise<Ending | undefined> {
  const cause = err instanceof ActivityFailure ? err.cause : undefined;
  if (!(cause instanceof ApplicationFailure) || cause.type !== FAILURES.modelInvalidStream.type) throw err;
  if (!isPatched(PATCHES.invalidStream)) throw err;
  if (carriesContinuation(run.cursor)) {
    const message = `${cause.message} It was still invalid after the prompt asked the model to continue.`;
    return endWithRecord(run, 'error', FAILURES.modelInvalidStream.type, message);
  }
  emit(run.state, { type: 'warning', message: `${cause.message} Asking the model to continue.` });
  run.addParts({ kind: 'text', text: INVALID_STREAM_CONTINUE_TEXT });
  return undefined;
}

function carriesContinuation(cursor: Readonly<Cursor>): boolean {
  return cursor.append.some((part) => part.kind === 'text' && part.text === INVALID_STREAM_CONTINUE_TEXT);
}
