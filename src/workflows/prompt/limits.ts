import { FAILURES } from '../../core/failures';
import type { Cursor } from '../api';
import type { PromptActivities } from '../state/activity-options';
import { emit, type PromptState } from '../state/prompt-state';
import { recordPending } from './agent-hooks';
import { endWithRecord, type Ending } from './endings';

/**
 * The turn limits, checked before each model request in Gemini CLI's order: the session's (`maxSessionTurns`, every
 * request of its prompts together), then this prompt's (`maxTurns`). Returns the ending when one is reached.
 */
export async function checkTurnLimits(
  state: PromptState,
  acts: PromptActivities,
  cursor: Cursor,
): Promise<Ending | undefined> {
  const input = state.input;
  const sessionLimit = input.maxSessionTurns;
  if (sessionLimit !== undefined && (input.sessionTurns ?? 0) + state.progress.turns >= sessionLimit)
    return endAtSessionLimit(state, acts, cursor, sessionLimit);
  if (state.progress.turns < input.maxTurns) return undefined;
  emit(state, { type: 'max_turns', maxTurns: input.maxTurns });
  const message = `Reached the limit of ${input.maxTurns} model turns for this prompt.`;
  return endWithRecord(acts, cursor, 'max_turns', FAILURES.turnLimit.type, message);
}

/**
 * The session has made all its requests. Function responses are written, so that each call keeps its response; a
 * message the model never saw (the prompt's own, a recovery note) is left out, as Gemini CLI never sends it: a
 * session's transcript does not fill up with unanswered prompts once the limit is reached.
 */
async function endAtSessionLimit(
  state: PromptState,
  acts: PromptActivities,
  cursor: Cursor,
  limit: number,
): Promise<Ending> {
  emit(state, { type: 'max_session_turns', maxSessionTurns: limit });
  if (cursor.append.some((part) => part.kind === 'functionResponse')) await recordPending(acts, cursor);
  cursor.append = [];
  const message =
    `Reached the session's limit of ${limit} model turns (maxSessionTurns): this prompt and every later one ` +
    'of the session end at once. Start a new session, with a higher --max-session-turns if needed.';
  return { kind: 'failure', reason: 'max_turns', type: FAILURES.sessionTurnLimit.type, message };
}
