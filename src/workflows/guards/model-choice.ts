import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import { CONTINUE_TEXT } from '../../core/next-speaker';
import { autoRoutingModels, fallbackModelFor, resolveModel } from '../../core/models';
import { isQuotaFailure } from '../../core/routing';
import type { ModelTurn, NewPart } from '../../core/types';
import {
  markUnavailable,
  QUOTA_RESET_UNKNOWN_MS,
  stillUnavailable,
  unavailableUntil,
  type ModelUnavailability,
} from '../../core/model-availability';
import type { PromptRun } from '../run/prompt-run';
import type { PromptState } from '../state/prompt-state';
import { emit, recordUtilityUsage } from '../run/records';
import { countFallback } from '../state/metrics';
import { markFellBack, setModel, setUnavailable } from '../run/progress';
import { checkSpend, type PlannedRequest } from './spend';
import { estimateTextTokens } from '../../core/tokens';

/**
 * The model for the whole prompt (sticky, as Gemini CLI): an explicit `-m` is used as given;
 * `auto` asks the classifier once, on the prompt and the last messages before it.
 */
export async function chooseModel(run: PromptRun): Promise<void> {
  const state = run.state;
  const pair = autoRoutingModels(state.input.model);
  if (pair && (await checkSpend(run, () => routingRequest(run))) === 'go') {
    const routed = await run.acts.routeModel({
      transcriptId: run.cursor.transcriptId,
      length: run.cursor.length,
      request: state.input.prompt,
      fastModel: pair.fast,
      strongModel: pair.strong,
      classifierModel: state.settings.classifierModel,
    });
    recordUtilityUsage(state, routed);
    setModel(state, resolveModel(routed.model, { resolutions: state.input.modelResolutions }));
  }
  emit(state, { type: 'model_info', model: state.progress.model });
}

/** The classifier's request: the prompt and the last messages before it, bounded by the last prompt's size. */
function routingRequest(run: PromptRun): PlannedRequest {
  const { state } = run;
  const promptTokens = state.context.lastPromptTokens + Math.ceil(estimateTextTokens(state.input.prompt));
  return { model: state.settings.classifierModel, promptTokens, what: 'routing' };
}

/**
 * A model call that falls back once from the strong model to the fast one when quota errors
 * persist after Temporal's retries (or the quota is used up), with an event saying so; the same
 * request is then sent again. The failed model is remembered as unavailable until its quota resets,
 * and a prompt whose model is already known unavailable goes straight to the fallback.
 * `mayFallBack` is asked only when a fallback would happen (a `patched` check of a loop that gained it).
 */
export async function callWithFallback<T extends ModelTurn | undefined>(
  state: PromptState,
  call: (model: string) => Promise<T>,
  mayFallBack: () => boolean = () => true,
): Promise<T> {
  skipUnavailable(state);
  try {
    return await call(state.progress.model);
  } catch (err) {
    const quota = quotaFailure(err);
    if (!quota) throw err;
    const failed = state.progress.model;
    // Workflow time: the reset is counted from when the workflow learned of the failure.
    const resetMs = quotaResetOf(quota) ?? QUOTA_RESET_UNKNOWN_MS;
    setUnavailable(state, markUnavailable(unavailableNow(state), failed, Date.now() + resetMs, Date.now()));
    const fallback = state.progress.fellBack ? undefined : fallbackFor(state, failed);
    if (!fallback || !mayFallBack()) throw err;
    // The worker refused the call: its message says until when the model is out.
    const refused = (quota.details?.[0] as { knownUnavailable?: unknown } | undefined)?.knownUnavailable === true;
    const why = refused ? quota.message : `${failed} kept answering with quota errors`;
    switchModel(state, fallback, `${why}; falling back to ${fallback}`);
    return call(fallback);
  }
}

/** The models known out of quota at this moment of workflow time. */
export function unavailableNow(state: PromptState): ModelUnavailability[] {
  return stillUnavailable(
    [...(state.progress.unavailable ?? []), ...(state.input.unavailableModels ?? [])],
    Date.now(),
  );
}

/** A model this session already found out of quota is not asked again before its reset. */
function skipUnavailable(state: PromptState): void {
  const model = state.progress.model;
  const until = unavailableUntil(unavailableNow(state), model, Date.now());
  const fallback = until === undefined || state.progress.fellBack ? undefined : fallbackFor(state, model);
  if (!fallback || until === undefined) return;
  const when = new Date(until).toISOString();
  switchModel(state, fallback, `${model} is out of quota until ${when} (found earlier); using ${fallback} meanwhile`);
}

function switchModel(state: PromptState, fallback: string, message: string): void {
  countFallback(state.progress.model, fallback);
  markFellBack(state);
  emit(state, { type: 'warning', message });
  setModel(state, fallback);
  emit(state, { type: 'model_info', model: fallback });
}

function fallbackFor(state: PromptState, model: string): string | undefined {
  return fallbackModelFor(model, autoRoutingModels(state.input.model));
}

function quotaFailure(err: unknown): ApplicationFailure | undefined {
  const cause = err instanceof ActivityFailure && err.cause instanceof ApplicationFailure ? err.cause : undefined;
  return cause && isQuotaFailure(cause.type) ? cause : undefined;
}

/** The reset time the model activity read from the error's retry info (details `[{ quotaResetMs }]`). */
function quotaResetOf(failure: ApplicationFailure): number | undefined {
  const reset = (failure.details?.[0] as { quotaResetMs?: unknown } | undefined)?.quotaResetMs;
  return typeof reset === 'number' && Number.isFinite(reset) && reset > 0 ? reset : undefined;
}

/**
 * Gemini CLI's next-speaker check after an answer without calls (off unless asked for): when the
 * model, not the user, should speak next, the prompt goes on with "Please continue.".
 */
export async function continuation(run: PromptRun): Promise<NewPart[] | undefined> {
  const state = run.state;
  if (!state.input.nextSpeakerCheck) return undefined;
  const { transcriptId, length } = run.cursor;
  const planned = { model: state.settings.nextSpeakerModel, promptTokens: state.context.lastPromptTokens };
  if ((await checkSpend(run, { ...planned, what: 'next speaker' })) === 'stop') return undefined;
  const verdict = await run.acts.checkNextSpeaker({ transcriptId, length, model: state.settings.nextSpeakerModel });
  recordUtilityUsage(state, verdict);
  return verdict.next === 'model' ? [{ kind: 'text', text: CONTINUE_TEXT }] : undefined;
}
