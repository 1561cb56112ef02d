import { setHandler } from '@temporalio/workflow';
import { checkPayload } from '../../core/message-input';
import { runLlmLoopCheck, beforeModelRequest, type LoopCheckResult } from '../../core/loop/llm-schedule';
import {
  continueAfterLoop,
  createLoopState,
  disableLoopDetection,
  observeModelTurn,
  recordDetection,
  type LoopDetection,
} from '../../core/loop/detection';
import type { FunctionCall } from '../../core/types';
import type { PromptState } from '../state/prompt-state';
import { emit } from '../run/records';
import type { PromptRun } from '../run/prompt-run';
import { type LoopDecision, loopDecisionSignal, loopDecisionSchema } from '../api';
import { setLoop } from '../run/progress';

export function registerLoopHandlers(run: PromptRun): void {
  const state = run.state;
  setHandler(loopDecisionSignal, (payload: unknown) => {
    const parsed = checkPayload('loopDecision', loopDecisionSchema, payload);
    if (!parsed.ok) return emit(state, { type: 'warning', message: parsed.reason });
    const decision = typeof parsed.value === 'string' ? parsed.value : parsed.value.action;
    if (!run.answerPause('loop', decision)) {
      emit(state, { type: 'warning', message: 'loopDecision ignored: the prompt is not paused on a loop' });
    }
  });
}

/** Level 3, before a model request: the LLM check when its schedule says it is due. */
export async function checkBeforeRequest(
  state: PromptState,
  ask: (model: string) => Promise<LoopCheckResult | undefined>,
): Promise<LoopDetection | undefined> {
  const pre = beforeModelRequest(state.loop);
  setLoop(state, pre.state);
  if (!pre.checkDue) return undefined;
  const models = state.settings.loopCheckModels;
  const result = await runLlmLoopCheck(state.loop, models, (model) => ask(model).catch(() => undefined));
  setLoop(state, result.state);
  return result.detection;
}

/**
 * Levels 1 and 2, after a model turn: repeated tool calls and chanting content. A turn whose stream the
 * activity cut on a content loop is that detection already.
 */
export function observeTurn(
  state: PromptState,
  turn: { text: string; functionCalls: FunctionCall[]; loop?: LoopDetection },
): LoopDetection | undefined {
  if (turn.loop && !state.loop.disabled) return turn.loop;
  const observation = observeModelTurn(state.loop, turn);
  setLoop(state, observation.state);
  return observation.detection;
}

/**
 * What a detection means for the prompt: the first is answered with a recovery message to the
 * model; the second pauses the prompt until a person says to go on, to go on without detection,
 * or to stop (or the decision timeout passes, which stops it).
 */
export async function onDetection(
  run: PromptRun,
  detection: LoopDetection,
): Promise<{ recover: string } | { resume: true } | { stop: true }> {
  const state = run.state;
  const action = recordDetection(state.loop, detection);
  setLoop(state, action.state);
  emit(state, {
    type: 'loop_detected',
    kind: detection.kind,
    detail: detection.detail,
    final: action.action === 'stop',
  });
  // The looping turn is dropped from the conversation, so its text must not count against the next one.
  setLoop(state, { ...state.loop, content: createLoopState().content });
  if (action.action === 'recover') return { recover: action.message };
  const decision: LoopDecision = (await run.pauseFor('loop', state.settings.loopDecisionTimeoutMs)) ?? 'stop';
  if (decision === 'stop') return { stop: true };
  setLoop(state, decision === 'disable' ? disableLoopDetection(state.loop) : continueAfterLoop(state.loop));
  emit(state, {
    type: 'warning',
    message: decision === 'disable' ? 'loop detection turned off for this prompt' : 'going on after a loop warning',
  });
  return { resume: true };
}
