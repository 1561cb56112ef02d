import { setHandler, workflowInfo } from '@temporalio/workflow';
import { checkPayload } from '../../core/message-input';
import { failedAttemptAfter, shouldCompress } from '../../core/compression';
import type { PromptRun } from '../run/prompt-run';
import type { PromptState } from '../state/prompt-state';
import { emit, recordUtilityUsage } from '../run/records';
import { preCompress } from '../hooks/tool-hooks';
import { hasHooks } from '../hooks/runner';
import { compressSignal, steerSignal, topUpBudgetSignal, type Cursor, steerSchema, topUpSchema } from '../api';
import { isPatched, PATCHES } from '../patches';
import { compressionModelFor } from '../../core/models';
import { checkSpend } from './spend';
import { forwardTopUp } from './child-spend';
import {
  addSteering,
  compressionStarted,
  raiseTokenBudget,
  requestCompression,
  setCompressionFailed,
  setLastPromptTokens,
  takeSteering,
} from '../run/context-part';

export function registerContextHandlers(run: PromptRun): void {
  const state = run.state;
  setHandler(steerSignal, (payload: unknown) => {
    const check = checkPayload('steer', steerSchema, payload);
    if (!check.ok) return emit(state, { type: 'warning', message: check.reason });
    addSteering(state, check.value.text);
  });
  setHandler(compressSignal, () => {
    requestCompression(state);
  });
  registerTopUpHandler(run);
}

/** `topUpBudget`: answers the run's own pause, or one of its sub-agents' (forwarded to the child). */
export function registerTopUpHandler(run: PromptRun): void {
  const state = run.state;
  setHandler(topUpBudgetSignal, async (payload: unknown) => {
    const parsed = checkPayload('topUpBudget', topUpSchema, payload);
    if (!parsed.ok) return emit(state, { type: 'warning', message: parsed.reason });
    const value = parsed.value;
    const answered =
      typeof value === 'object' && 'tokens' in value
        ? run.answerPause('budget', value.tokens)
        : typeof value === 'object' && 'usd' in value
          ? run.answerPause('cost', value.usd)
          : run.answerPause('budget', 'stop') || run.answerPause('cost', 'stop');
    if (!answered && !(await forwardTopUp(run, value))) emit(state, { type: 'warning', message: ignoredTopUp(value) });
  });
}

/** Why a top-up changed nothing: the prompt waits for no budget, or for the other kind. */
function ignoredTopUp(value: object | string): string {
  const kind = typeof value === 'object' && 'usd' in value ? 'its spending limit' : 'a budget';
  return `topUpBudget ignored: the prompt is not waiting for ${typeof value === 'object' && 'tokens' in value ? 'a token budget' : kind}`;
}

/** The context steps before each model request: compression, then any steering messages. */
export async function beforeRequest(run: PromptRun): Promise<void> {
  await maybeCompress(run);
  deliverSteering(run);
}

/**
 * Steering arrives at a safe boundary: after the current tool results, with the next model request,
 * never between a function call and its response.
 */
export function deliverSteering(run: PromptRun): void {
  const state = run.state;
  for (const text of takeSteering(state)) {
    emit(state, { type: 'user_steering', text });
    run.addParts({ kind: 'text', text: `[The user adds, while you work:] ${text}` });
  }
}

/** Whether the next request is preceded by a compression step (see `maybeCompress`). */
export function compressionDue(state: PromptState): boolean {
  const action = shouldCompress({
    lastPromptTokens: state.context.lastPromptTokens,
    model: state.progress.model,
    force: state.context.forceCompress,
    hasFailedBefore: state.context.compressionFailed,
  });
  return action !== 'none';
}

/**
 * Gemini CLI's compression step before a request: when the last prompt used half the model's
 * window (or a person asked), the older 70% of the conversation becomes a state snapshot in a new
 * transcript; after a failed attempt, old tool outputs are truncated instead.
 */
export async function maybeCompress(run: PromptRun): Promise<void> {
  const { state, cursor } = run;
  if (!compressionDue(state)) {
    if (preCompressAtCheck(state, cursor)) await preCompress(state, 'auto');
    return;
  }
  const force = state.context.forceCompress;
  const planned = { model: compressionModelFor(state.progress.model), what: 'compression', calls: 2 };
  if ((await checkSpend(run, { ...planned, promptTokens: state.context.lastPromptTokens })) === 'stop') return;
  await preCompress(state, force ? 'manual' : 'auto');
  compressionStarted(state);
  const result = await run.acts.compressTranscript({
    transcriptId: cursor.transcriptId,
    length: cursor.length,
    newTranscriptId: `${workflowInfo().workflowId}/compressed-${state.context.compressions}`,
    model: state.progress.model,
    force,
    hasFailedBefore: state.context.compressionFailed,
    lastPromptTokens: state.context.lastPromptTokens,
  });
  recordUtilityUsage(state, result);
  setCompressionFailed(state, failedAttemptAfter(state.context.compressionFailed, result.status, force));
  if (result.transcriptId !== cursor.transcriptId) {
    run.moveTo(result.transcriptId, result.newLength);
    setLastPromptTokens(state, result.newTokens);
  }
  emit(state, {
    type: 'chat_compressed',
    status: result.status,
    originalTokens: result.originalTokens,
    newTokens: result.newTokens,
  });
}

/**
 * Gemini CLI fires PreCompress (`auto`) at every compression check, not only before a compression,
 * once its conversation holds anything. Its conversation starts with the environment message, so the
 * check before the very first request fires it too: a one-request `-p` run fires it once. Ours sends
 * the environment with the first user message, so an empty cursor stands for that first check.
 */
function preCompressAtCheck(state: PromptState, cursor: Readonly<Cursor>): boolean {
  if (!hasHooks(state, 'PreCompress', 'auto')) return false;
  return cursor.length > 0 ? isPatched(PATCHES.preCompressEachCheck) : isPatched(PATCHES.preCompressFirstCheck);
}

/**
 * The token budget (`--max-tokens`): once spent, the prompt pauses instead of failing and waits,
 * durably, for a top-up or a stop.
 */
export async function checkBudget(run: PromptRun): Promise<'go' | 'stop'> {
  const state = run.state;
  while (state.context.tokenBudget !== undefined && state.progress.stats.usage.total >= state.context.tokenBudget) {
    emit(state, {
      type: 'budget_exhausted',
      used: state.progress.stats.usage.total,
      budget: state.context.tokenBudget,
    });
    const answer = await run.pauseFor('budget');
    if (answer === 'stop') return 'stop';
    raiseTokenBudget(state, answer ?? 0);
    emit(state, { type: 'warning', message: `token budget raised to ${state.context.tokenBudget}` });
  }
  return 'go';
}
