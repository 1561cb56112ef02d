import { FAILURES } from '../../core/failures';
import type { PromptRun } from '../run/prompt-run';
import { emit } from '../run/records';
import { recordPending } from './agent-hooks';
import { endWithRecord, type Ending } from './settle';

/**
 * The turn limits, checked before each model request in Gemini CLI's order: the session's (`maxSessionTurns`, every
 * request of its prompts together), then this prompt's (`maxTurns`). Returns the ending when one is reached.
 */
export async function checkTurnLimits(run: PromptRun): Promise<Ending | undefined> {
  const { state } = run;
  const input = state.input;
  const sessionLimit = input.maxSessionTurns;
  if (sessionLimit !== undefined && (input.sessionTurns ?? 0) + state.progress.turns >= sessionLimit)
    return endAtSessionLimit(run, sessionLimit);
  if (state.progress.turns < input.maxTurns) return undefined;
  emit(state, { type: 'max_turns', maxTurns: input.maxTurns });
  const message = `Reached the limit of ${input.maxTurns} model turns for this prompt.`;
  return endWithRecord(run, 'max_turns', FAILURES.turnLimit.type, message);
}

/**
 * The session has made all its requests. Function responses are written, so that each call keeps its response; a
 * message the model never saw (the prompt's own, a recovery note) is left out, as Gemini CLI never sends it: a
 * session's transcript does not fill up with unanswered prompts once the limit is reached.
 */
async function endAtSessionLimit(run: PromptRun, limit: number): Promise<Ending> {
  emit(run.state, { type: 'max_session_turns', maxSessionTurns: limit });
  if (run.cursor.append.some((part) => part.kind === 'functionResponse')) await recordPending(run);
  run.setMessage([]);
  const message =
    `Reached the session's limit of ${limit} model turns (maxSessionTurns): this prompt and every later one ` +
    'of the session end at once. Start a new session, with a higher --max-session-turns if needed.';
  return { kind: 'failure', reason: 'max_turns', type: FAILURES.sessionTurnLimit.type, message };
}
