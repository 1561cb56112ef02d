import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  isCancellation,
  log,
  proxyActivities,
  setHandler,
  TemporalFailure,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { FunctionCall, NewPart } from '../core/types';
import { toolNames } from '../tools';
import { eventsQuery, statusQuery, type PromptInput, type PromptResult } from './messages';
import { createPromptState, emit, eventsPage, recordUsage, statusOf, type PromptState } from './prompt-state';
import { runToolCalls, settleCalls } from './tool-calls';
import { registerApprovalHandlers } from './approvals';
import { toolsForMode } from './workflow-tools';
import { callWithFallback, chooseModel, continuation } from './model-choice';
import { checkBeforeRequest, observeTurn, onDetection, registerLoopHandlers } from './loop-guard';
import type { LoopDetection } from '../core/loop-detection';
import { LLM_LOOP_CHECK_MAX_ATTEMPTS } from '../core/llm-loop-schedule';
import { NON_RETRYABLE_MODEL_ERRORS } from '../core/model-error-types';

/**
 * One user prompt, as Gemini CLI's loop: model turn; run its function calls; send their responses;
 * repeat until the model answers without calls, the turn budget is spent, or the prompt is cancelled.
 * The conversation lives in the transcript store; history carries references and small results.
 */
export async function agentPromptWorkflow(input: PromptInput): Promise<PromptResult> {
  const state = createPromptState(input);
  setHandler(statusQuery, () => statusOf(state));
  setHandler(eventsQuery, (cursor: number) => eventsPage(state, cursor));
  registerApprovalHandlers(state);
  registerLoopHandlers(state);
  const acts = activitiesFor(input);
  const transcriptId = input.transcript?.id ?? workflowInfo().workflowId;
  const cursor = { length: input.transcript?.length ?? 0, append: [{ kind: 'text', text: input.prompt }] as NewPart[] };
  const open: OpenCalls = { calls: [] };
  emit(state, { type: 'user_prompt', text: input.prompt });
  try {
    await chooseModel(state, acts, transcriptId, cursor.length);
    for (;;) {
      const result = await step(state, acts, transcriptId, cursor, open);
      if (result) return result;
    }
  } catch (err) {
    if (isCancellation(err)) {
      await CancellationScope.nonCancellable(() => recordCancellation(state, acts, transcriptId, cursor, open.calls));
      throw err;
    }
    // A failure made by failPrompt (the turn limit) is final already; wrapping it again would repeat its event.
    if (state.finished && err instanceof ApplicationFailure) throw err;
    throw failPrompt(state, err);
  }
}

type Cursor = { length: number; append: NewPart[] };
type OpenCalls = { calls: FunctionCall[] };
type Acts = ReturnType<typeof activitiesFor>;

/**
 * One model request and its tool calls. Returns the result when the prompt is done, undefined to
 * go on. `open` holds calls that have no response yet, for cancellation.
 */
async function step(state: PromptState, acts: Acts, transcriptId: string, cursor: Cursor, open: OpenCalls): Promise<PromptResult | undefined> {
  const input = state.input;
  if (state.turns >= input.maxTurns) return stopAtTurnLimit(state, acts, transcriptId, cursor);
  const early = await checkBeforeRequest(state, (model) => acts.checkForLoop({ transcriptId, length: cursor.length, model, prompt: input.prompt }));
  if (early) return void (await handleLoop(state, early, cursor));
  state.turns += 1;
  const sent: Cursor = { length: cursor.length, append: [...cursor.append] };
  const turn = await callWithFallback(state, (model) =>
    acts.callModel({ transcriptId, baseLength: cursor.length, append: cursor.append, model, workspace: input.workspace, toolNames: toolsForMode(toolNames, state.mode), turn: state.turns }),
  );
  Object.assign(cursor, { length: turn.transcriptLength, append: [] });
  const detection = observeTurn(state, turn);
  if (detection) {
    // The looping turn is abandoned, as Gemini CLI abandons it: what it answered is sent again.
    recordUsage(state, turn.model, turn.usage);
    Object.assign(cursor, sent);
    return void (await handleLoop(state, detection, cursor));
  }
  reportTurn(state, turn);
  if (turn.functionCalls.length === 0) {
    const more = await continuation(state, acts, transcriptId, cursor.length);
    if (!more) return finishPrompt(state, 'completed');
    cursor.append = more;
    return undefined;
  }
  open.calls = turn.functionCalls;
  cursor.append = await runToolCalls(state, turn.functionCalls, acts.runTool);
  open.calls = [];
  return undefined;
}

/** A first detection adds the recovery message to the next request; a final one ends the prompt. */
async function handleLoop(state: PromptState, detection: LoopDetection, cursor: Cursor): Promise<void> {
  const next = await onDetection(state, detection);
  if ('recover' in next) cursor.append = [...cursor.append, { kind: 'text', text: next.recover }];
  if ('stop' in next) {
    const message = `Stopped: the prompt kept repeating itself (${detection.detail}).`;
    throw failPrompt(state, ApplicationFailure.create({ type: 'LoopDetected', message, nonRetryable: true }), 'loop_detected');
  }
}

function activitiesFor(input: PromptInput) {
  const model = proxyActivities<Activities>({
    startToCloseTimeout: '10 minutes',
    heartbeatTimeout: '60 seconds',
    retry: {
      initialInterval: input.modelRetryInitialMs ?? 5000,
      backoffCoefficient: 2,
      maximumInterval: '30 seconds',
      maximumAttempts: input.modelMaxAttempts ?? 10,
      nonRetryableErrorTypes: NON_RETRYABLE_MODEL_ERRORS,
    },
  });
  const tools = proxyActivities<Activities>({
    startToCloseTimeout: (input.shellTimeoutMs ?? 300_000) + 60_000,
    heartbeatTimeout: input.toolHeartbeatTimeoutMs ?? 30_000,
    retry: { initialInterval: '1 second', maximumAttempts: 5 },
  });
  const loopCheck = proxyActivities<Activities>({
    startToCloseTimeout: '2 minutes',
    retry: { maximumAttempts: LLM_LOOP_CHECK_MAX_ATTEMPTS, initialInterval: input.modelRetryInitialMs ?? 5000, nonRetryableErrorTypes: NON_RETRYABLE_MODEL_ERRORS },
  });
  // Routing and next-speaker answers never fail for bad model output; a failed call means "default".
  const utility = proxyActivities<Activities>({ startToCloseTimeout: '2 minutes', retry: { maximumAttempts: 1 } });
  return {
    callModel: model.callModel,
    runTool: tools.runTool,
    recordMessage: tools.recordMessage,
    checkForLoop: loopCheck.checkForLoop,
    routeModel: utility.routeModel,
    checkNextSpeaker: utility.checkNextSpeaker,
  };
}

function reportTurn(state: PromptState, turn: Awaited<ReturnType<Activities['callModel']>>): void {
  for (const thought of turn.thoughts) emit(state, { type: 'thought', turn: state.turns, ...thought });
  if (turn.text) {
    emit(state, { type: 'content', turn: state.turns, text: turn.text });
    state.response += turn.text;
  }
  for (const call of turn.functionCalls) {
    emit(state, { type: 'tool_call_request', turn: state.turns, callId: call.id, name: call.name, args: call.args });
  }
  recordUsage(state, turn.model, turn.usage);
  emit(state, { type: 'finished', turn: state.turns, reason: turn.finishReason, usage: turn.usage });
}

function finishPrompt(state: PromptState, reason: 'completed'): PromptResult {
  state.finished = true;
  state.terminateReason = reason;
  return { terminateReason: reason, response: state.response, turns: state.turns, stats: state.stats };
}

/** The budget is spent: record the pending responses so the transcript stays whole, then fail. */
async function stopAtTurnLimit(state: PromptState, acts: Acts, transcriptId: string, cursor: Cursor): Promise<never> {
  if (cursor.append.length > 0) await acts.recordMessage({ transcriptId, index: cursor.length, append: cursor.append });
  emit(state, { type: 'max_turns', maxTurns: state.input.maxTurns });
  const message = `Reached the limit of ${state.input.maxTurns} model turns for this prompt.`;
  throw failPrompt(state, ApplicationFailure.create({ type: 'TurnLimit', message, nonRetryable: true }), 'max_turns');
}

async function recordCancellation(state: PromptState, acts: Acts, transcriptId: string, cursor: Cursor, openCalls: FunctionCall[]): Promise<void> {
  const append = openCalls.length > 0 ? settleCalls(state, openCalls, 'The prompt was cancelled.') : cursor.append;
  if (append.some((p) => p.kind === 'functionResponse')) {
    await acts.recordMessage({ transcriptId, index: cursor.length, append }).catch((err) => log.warn('could not record cancelled calls', { err: String(err) }));
  }
  emit(state, { type: 'cancelled' });
  state.finished = true;
  state.terminateReason = 'cancelled';
}

/**
 * The one place workflow errors become failures (STYLE rule 7): a plain Error would fail the
 * workflow task and be retried forever, so everything leaves as a non-retryable ApplicationFailure
 * whose type and message say what went wrong.
 */
function failPrompt(state: PromptState, err: unknown, reason: 'error' | 'max_turns' | 'loop_detected' = 'error'): TemporalFailure {
  const cause = err instanceof ActivityFailure && err.cause instanceof ApplicationFailure ? err.cause : err;
  const type = cause instanceof ApplicationFailure ? (cause.type ?? 'Error') : 'InternalError';
  const message = cause instanceof Error ? cause.message : String(cause);
  state.finished = true;
  state.terminateReason = reason;
  state.error = { type, message };
  emit(state, { type: 'error', errorType: type, message });
  const details = [{ turns: state.turns, stats: state.stats, response: state.response }];
  return ApplicationFailure.create({ type, message, nonRetryable: true, details, cause: cause instanceof Error ? cause : undefined });
}
