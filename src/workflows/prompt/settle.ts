import {
  ActivityFailure,
  ApplicationFailure,
  log,
  upsertSearchAttributes,
  type TemporalFailure,
} from '@temporalio/workflow';
import { STATUS_ATTRIBUTE, type AgentEndingValue } from '../../core/search-attributes';
import { FAILURES } from '../../core/failures';
import type { TerminateReason } from '../../core/types';
import type { PromptRun } from '../run/prompt-run';
import type { PromptState } from '../state/prompt-state';
import { emit } from '../run/records';
import { countEnding } from '../state/metrics';
import { settleCalls } from '../calls/run-calls';
import { unavailableNow } from '../guards/model-choice';
import type { PromptResult } from '../api';
import { afterAgentAtEnding, endPrompt, endPromptOnFailure, recordPending } from './agent-hooks';
import type { Ending } from './ending';
import { isPatched, PATCHES } from '../patches';
import { setPublishedStatus } from '../run/progress';
import { reportCancelledSpend } from './cancelled-spend';

export type { Ending } from './ending';

export async function settle(run: PromptRun, ending: Ending): Promise<PromptResult> {
  const state = run.state;
  if (ending.kind === 'result') {
    const result = finishPrompt(run, ending.reason);
    return ending.sessionEnd === false ? result : endPrompt(state, result);
  }
  await afterAgentAtEnding(state, ending.reason);
  const failure = failPrompt(
    run,
    ApplicationFailure.create({ type: ending.type, message: ending.message, nonRetryable: true }),
    ending.reason,
  );
  await endPromptOnFailure(state, failure);
  throw failure;
}

function finishPrompt(run: PromptRun, reason: 'completed' | 'stopped'): PromptResult {
  const state = run.state;
  countEnding(reason);
  run.end(reason);
  publishEnding(state, 'completed');
  return {
    terminateReason: reason,
    response: state.progress.response,
    turns: state.progress.turns,
    stats: state.progress.stats,
    ...(state.progress.todos ? { todos: state.progress.todos } : {}),
    ...(state.progress.topics ? { topics: state.progress.topics } : {}),
    ...turnRecordsOf(state),
    ...continuation(run),
  };
}

/**
 * What a session needs to go on after this prompt: the transcript's end, the granted rules, models out of quota, the
 * spending limit with its top-ups.
 */
function continuation(
  run: PromptRun,
): Pick<PromptResult, 'transcript' | 'sessionRules' | 'unavailableModels' | 'costLimitUsd'> {
  const { state, cursor } = run;
  const unavailable = unavailableNow(state);
  const costLimitUsd = state.context.costLimitUsd;
  return {
    ...(costLimitUsd !== undefined ? { costLimitUsd } : {}),
    // A sub-agent's transcript is its own: its parent goes on in the prompt's.
    transcript: run.subagent ? undefined : { id: cursor.transcriptId, length: cursor.length },
    sessionRules: state.progress.sessionRules,
    ...(unavailable.length > 0 ? { unavailableModels: unavailable } : {}),
  };
}

/** A limit ends the prompt with a failure of `type`, after the pending message is written. */
export async function endWithRecord(
  run: PromptRun,
  reason: TerminateReason,
  type: string,
  message: string,
): Promise<Ending> {
  await recordPending(run);
  return { kind: 'failure', reason, type, message };
}

export async function recordCancellation(run: PromptRun): Promise<void> {
  const { state, cursor } = run;
  const open = [...run.openCalls];
  const append = open.length > 0 ? settleCalls(state, open, 'The prompt was cancelled.') : cursor.append;
  if (append.some((p) => p.kind === 'functionResponse')) {
    await run.acts
      .recordMessage({ transcriptId: cursor.transcriptId, index: cursor.length, append })
      .catch((err) => log.warn('could not record cancelled calls', { err: String(err) }));
  }
  emit(state, { type: 'cancelled' });
  countEnding('cancelled');
  run.end('cancelled');
  publishEnding(state, 'cancelled');
  await reportCancelledSpend(run);
}

/**
 * The one place workflow errors become failures: a plain Error would fail the
 * workflow task and be retried forever, so everything leaves as a non-retryable ApplicationFailure
 * whose type and message say what went wrong.
 */
export function failPrompt(run: PromptRun, err: unknown, reason: TerminateReason = 'error'): TemporalFailure {
  const state = run.state;
  const cause = err instanceof ActivityFailure && err.cause instanceof ApplicationFailure ? err.cause : err;
  const type = cause instanceof ApplicationFailure ? (cause.type ?? FAILURES.error.type) : FAILURES.internal.type;
  const message = cause instanceof Error ? cause.message : String(cause);
  countEnding(reason);
  run.end(reason, { type, message });
  emit(state, { type: 'error', errorType: type, message });
  publishEnding(state, reason === 'cancelled' ? 'cancelled' : 'failed');
  const details = [
    {
      turns: state.progress.turns,
      stats: state.progress.stats,
      response: state.progress.response,
      ...turnRecordsOf(state),
      ...continuation(run),
    },
  ];
  return ApplicationFailure.create({
    type,
    message,
    nonRetryable: true,
    details,
    cause: cause instanceof Error ? cause : undefined,
  });
}

/** The turn records, for `checkpoints` and `rewind` once the prompt is closed (absent in runs from before them). */
function turnRecordsOf(state: PromptState): Pick<PromptResult, 'turnRecords'> {
  return state.progress.turnRecords ? { turnRecords: state.progress.turnRecords } : {};
}

/** Sets the status search attribute to how the prompt ended, when the cluster has it. */
export function publishEnding(state: PromptState, value: AgentEndingValue): void {
  if (!state.input.searchAttributes || !isPatched(PATCHES.statusAtEnd)) return;
  setPublishedStatus(state, value);
  upsertSearchAttributes([{ key: STATUS_ATTRIBUTE, value }]);
}
