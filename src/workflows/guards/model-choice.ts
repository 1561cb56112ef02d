import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import { CONTINUE_TEXT } from '../../core/next-speaker';
import { autoRoutingModels, fallbackModelFor, isQuotaFailure } from '../../core/routing';
import type { ModelTurn, NewPart } from '../../core/types';
import type { Activities } from '../../activities';
import { emit, recordUtilityUsage, type PromptState } from '../state/prompt-state';

type UtilityActs = Pick<Activities, 'routeModel' | 'checkNextSpeaker'>;

/**
 * The model for the whole prompt (sticky, as Gemini CLI): an explicit `-m` is used as given;
 * `auto` asks the classifier once, on the prompt and the last messages before it.
 */
export async function chooseModel(
  state: PromptState,
  acts: UtilityActs,
  transcriptId: string,
  length: number,
): Promise<void> {
  const pair = autoRoutingModels(state.input.model);
  if (pair) {
    const routed = await acts.routeModel({
      transcriptId,
      length,
      request: state.input.prompt,
      fastModel: pair.fast,
      strongModel: pair.strong,
      classifierModel: state.settings.classifierModel,
    });
    recordUtilityUsage(state, routed.usage);
    state.progress.model = routed.model;
  }
  emit(state, { type: 'model_info', model: state.progress.model });
}

/**
 * A model call that falls back once from the strong model to the fast one when quota errors
 * persist after Temporal's retries, with an event saying so; the same request is then sent again.
 */
export async function callWithFallback(
  state: PromptState,
  call: (model: string) => Promise<ModelTurn>,
): Promise<ModelTurn> {
  try {
    return await call(state.progress.model);
  } catch (err) {
    const type = err instanceof ActivityFailure && err.cause instanceof ApplicationFailure ? err.cause.type : undefined;
    const fallback =
      state.progress.fellBack || !isQuotaFailure(type)
        ? undefined
        : fallbackModelFor(state.progress.model, autoRoutingModels(state.input.model));
    if (!fallback) throw err;
    state.progress.fellBack = true;
    emit(state, {
      type: 'warning',
      message: `${state.progress.model} kept answering with quota errors; falling back to ${fallback}`,
    });
    state.progress.model = fallback;
    emit(state, { type: 'model_info', model: fallback });
    return call(fallback);
  }
}

/**
 * Gemini CLI's next-speaker check after an answer without calls (off unless asked for): when the
 * model, not the user, should speak next, the prompt goes on with "Please continue.".
 */
export async function continuation(
  state: PromptState,
  acts: UtilityActs,
  transcriptId: string,
  length: number,
): Promise<NewPart[] | undefined> {
  if (!state.input.nextSpeakerCheck) return undefined;
  const verdict = await acts.checkNextSpeaker({ transcriptId, length, model: state.settings.nextSpeakerModel });
  recordUtilityUsage(state, verdict.usage);
  return verdict.next === 'model' ? [{ kind: 'text', text: CONTINUE_TEXT }] : undefined;
}
