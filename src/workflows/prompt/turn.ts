import type { CallModelInput } from '../../activities/call-model';
import type { ModelTurn } from '../../core/types';
import type { PromptRun } from '../run/prompt-run';
import { adoptCallIds } from '../state/call-ids';
import type { PromptState } from '../state/prompt-state';
import { emit, recordTurnUsage } from '../run/records';
import { callFramed, type FrameMemo } from '../state/request-frame';
import { addResponse, countTurn, rememberFrame } from '../run/progress';
import { runToolCalls } from '../calls/run-calls';
import { checkpointTurnEnd } from '../calls/checkpoint-calls';
import { openTurnRecord } from '../run/turn-records';
import { checkSpend, nextRequestTokens } from '../guards/spend';

/** What a loop says about its requests; the turn fills in the transcript position, model and turn number. */
export type TurnFrame = Omit<CallModelInput, 'transcriptId' | 'baseLength' | 'append' | 'model' | 'workspace' | 'turn'>;

/** How one loop takes its turns: the prompt and the sub-agent differ only here. */
export interface TurnSpec<Verdict> {
  frame: TurnFrame;
  /** Sends the request to a model (the prompt falls back to another on quota). Default: the run's model. */
  send?: (ask: (model: string) => Promise<ModelTurn | undefined>) => Promise<ModelTurn | undefined>;
  /**
   * Looks at the answer once it is in the transcript, before its calls are taken up (the prompt's
   * AfterModel hook and loop check). A verdict abandons the turn: the cursor goes back to what was
   * sent, so the same message goes out again with the next request.
   */
  review?: (turn: ModelTurn) => Promise<Verdict | undefined>;
}

export type TakenTurn<Verdict> =
  /** The model answered; its calls, if any, have prompt-unique ids and are reported. */
  | { kind: 'taken'; turn: ModelTurn }
  /** The request would not fit the context window, so it was not sent and does not count. */
  | { kind: 'overflow'; fit: NonNullable<ModelTurn['overflow']> }
  | { kind: 'abandoned'; verdict: Verdict }
  /** The request could cross the spending limit and a person said stop (a sub-agent stops by itself): not sent. */
  | { kind: 'stopped' };

export type TurnOutcome<Verdict> =
  | Exclude<TakenTurn<Verdict>, { kind: 'taken' }>
  /** An answer without calls. */
  | { kind: 'answered'; turn: ModelTurn }
  /** Every call ran; their responses wait in the run's pending message for the next request. */
  | { kind: 'called'; turn: ModelTurn };

/**
 * One model turn as both loops take it (Gemini CLI's `Turn.run`): counted, sent with its frame by
 * reference, the cursor moved past the answer, reviewed, its calls given their ids and reported.
 * The commands go out in this order in every loop, which recorded histories depend on.
 */
export async function takeTurn<V>(run: PromptRun, spec: TurnSpec<V>): Promise<TakenTurn<V>> {
  const state = run.state;
  countTurn(state);
  const sent = run.snapshot();
  const remember = (frame: FrameMemo) => rememberFrame(state, frame);
  const ask = async (model: string): Promise<ModelTurn | undefined> => {
    if ((await checkSpend(run, () => ({ model, promptTokens: nextRequestTokens(run), what: 'turn' }))) === 'stop')
      return;
    return callFramed(state.frame, remember, requestFor(run, spec.frame, model), run.acts.callModel);
  };
  const turn = await (spec.send ? spec.send(ask) : ask(state.progress.model));
  if (!turn) {
    countTurn(state, false);
    return { kind: 'stopped' };
  }
  if (turn.overflow) {
    countTurn(state, false);
    return { kind: 'overflow', fit: turn.overflow };
  }
  run.recorded(turn.transcriptLength);
  const verdict = await spec.review?.(turn);
  if (verdict !== undefined) {
    recordTurnUsage(state, turn);
    run.rewind(sent);
    return { kind: 'abandoned', verdict };
  }
  adoptCallIds(state, turn.functionCalls);
  if (!run.subagent) openTurnRecord(state, { id: run.cursor.transcriptId, length: run.cursor.length });
  reportTurn(state, turn);
  return { kind: 'taken', turn };
}

/** A turn and then its calls, each answered once; the open calls are tracked for a cancellation. */
export async function runTurn<V>(run: PromptRun, spec: TurnSpec<V>): Promise<TurnOutcome<V>> {
  const taken = await takeTurn(run, spec);
  if (taken.kind !== 'taken') return taken;
  const calls = taken.turn.functionCalls;
  if (calls.length === 0) return { kind: 'answered', turn: taken.turn };
  run.callsOpened(calls);
  run.setMessage(await runToolCalls(run, calls, (request) => checkSpend(run, request)));
  run.callsAnswered();
  await checkpointTurnEnd(run);
  return { kind: 'called', turn: taken.turn };
}

function requestFor(run: PromptRun, frame: TurnFrame, model: string): CallModelInput {
  const { state, cursor } = run;
  return {
    ...frame,
    transcriptId: cursor.transcriptId,
    baseLength: cursor.length,
    append: cursor.append,
    model,
    workspace: state.input.workspace,
    turn: state.progress.turns,
  };
}

function reportTurn(state: PromptState, turn: ModelTurn): void {
  const number = state.progress.turns;
  for (const thought of turn.thoughts) emit(state, { type: 'thought', turn: number, ...thought });
  if (turn.text) {
    emit(state, { type: 'content', turn: number, text: turn.text });
    addResponse(state, turn.text);
  }
  for (const call of turn.functionCalls) {
    emit(state, { type: 'tool_call_request', turn: number, callId: call.id, name: call.name, args: call.args });
  }
  recordTurnUsage(state, turn);
  emit(state, { type: 'finished', turn: number, reason: turn.finishReason, usage: turn.usage });
}
