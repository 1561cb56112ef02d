import { ContinueAsNew, isCancellation, workflowInfo } from '@temporalio/workflow';
import { effectiveReason, hookContextPart } from '../../core/hooks/context';
import type { HookDecision } from '../../core/hooks/types';
import type { ModelHookInput } from '../../activities/hooks/model-hooks';
import type { ModelTurn } from '../../core/types';
import type { PromptState } from '../state/prompt-state';
import { emit } from '../run/records';
import { firePromptHook, hasHooks } from '../hooks/runner';
import type { PromptResult } from '../api';
import type { PromptRun } from '../run/prompt-run';
import type { Ending } from './ending';
import { isPatched, PATCHES } from '../patches';
import { hookStop, hooksBegan, hooksCleared, hooksContinueWith, setLastPromptTokens } from '../run/context-part';

/**
 * The agent-level hook events of a prompt (as Gemini CLI fires them). Each returns quickly without
 * an activity when no hook is configured for its event. Stops and blocks end the prompt as
 * `stopped` (exit 0), as Gemini CLI's headless mode ends without an error.
 */

/** SessionStart of a standalone run, then BeforeAgent. Returns the result when a hook ends the prompt. */
export async function beginPrompt(run: PromptRun): Promise<Ending | undefined> {
  const state = run.state;
  if (state.hooks.began) return undefined;
  if (state.input.hookContext) run.prependParts(hookContextPart(state.input.hookContext));
  const systemMessage = state.input.hookSystemMessage;
  // The session's SessionStart ran before this prompt; its message is shown with this prompt's events.
  if (systemMessage)
    emit(state, { type: 'hook', event: 'SessionStart', hooks: 1, decision: 'allow', stop: false, systemMessage });
  if (state.hooks.standalone) {
    const start = await firePromptHook(state, 'SessionStart', 'startup', { fields: { source: 'startup' } });
    if (start?.additionalContext) run.prependParts(hookContextPart(start.additionalContext));
  }
  return beforeAgent(run);
}

async function beforeAgent(run: PromptRun): Promise<Ending | undefined> {
  const state = run.state;
  hooksBegan(state);
  const decision = await firePromptHook(state, 'BeforeAgent', undefined, { fields: { prompt: state.hooks.prompt } });
  if (!decision) return undefined;
  if (decision.stop) {
    // Gemini CLI keeps the user message of a stopped prompt in the conversation.
    await recordPending(run);
    return stopped(state, 'agent_execution_stopped', decision);
  }
  if (decision.blocked) {
    run.setMessage([]);
    return stopped(state, 'agent_execution_blocked', decision);
  }
  if (decision.additionalContext) run.addParts(hookContextPart(decision.additionalContext));
  return undefined;
}

/**
 * The prompt would end: AfterAgent may stop it (optionally clearing the context) or block, which
 * continues it with the reason as a new user message (BeforeAgent fires again for it).
 */
export async function finishOrContinue(run: PromptRun): Promise<Ending | undefined> {
  const state = run.state;
  if (state.hooks.stop !== undefined) return stopped(state, 'agent_execution_stopped', { reason: state.hooks.stop });
  const decision = await fireAfterAgent(state);
  if (!decision || (!decision.stop && !decision.blocked)) return { kind: 'result', reason: 'completed' };
  if (decision.clearContext) clearContext(run);
  if (decision.stop) return stopped(state, 'agent_execution_stopped', decision);
  const reason = effectiveReason(decision.reason);
  emit(state, { type: 'agent_execution_blocked', reason, systemMessage: decision.systemMessage });
  run.setMessage([{ kind: 'text', text: reason }]);
  hooksContinueWith(state, reason);
  return beforeAgent(run);
}

function fireAfterAgent(state: PromptState): Promise<HookDecision | undefined> {
  return firePromptHook(state, 'AfterAgent', undefined, {
    fields: {
      prompt: state.hooks.prompt,
      prompt_response: state.progress.response || '[no response text]',
      stop_hook_active: state.hooks.stopHookActive,
    },
  });
}

/**
 * AfterAgent at an ending other than the model's answer (a turn limit, an overflow, a loop or budget stop, a failure),
 * as Gemini CLI fires it whatever ended the turn. The prompt ends all the same: a limit must hold, so a hook asking to
 * go on or to stop is only reported. Not after a hook's own stop or block, nor on cancellation.
 */
export async function afterAgentAtEnding(state: PromptState, ending: string): Promise<void> {
  if (!state.hooks.began || !hasHooks(state, 'AfterAgent') || !isPatched(PATCHES.afterAgentOnEveryEnding)) return;
  const decision = await fireAfterAgent(state);
  if (!decision?.stop && !decision?.blocked) return;
  const asked = decision.stop ? 'to stop' : 'to go on';
  emit(state, { type: 'warning', message: `AfterAgent asked ${asked}, but the prompt had already ended (${ending}).` });
}

/** A hook stopped the prompt during a model turn or its tools: record what is pending and stop. */
export async function stopIfHookSaid(run: PromptRun): Promise<Ending | undefined> {
  const state = run.state;
  if (state.hooks.stop === undefined) return undefined;
  await recordPending(run);
  return stopped(state, 'agent_execution_stopped', { reason: state.hooks.stop });
}

/** SessionEnd of a standalone run, after its result is made. */
export async function endPrompt(state: PromptState, result: PromptResult): Promise<PromptResult> {
  if (state.hooks.standalone) await firePromptHook(state, 'SessionEnd', 'exit', { fields: { reason: 'exit' } });
  return result;
}

/** SessionEnd of a standalone run that fails (a limit, a model error); not on cancellation or continue-as-new. */
export async function endPromptOnFailure(state: PromptState, err: unknown): Promise<void> {
  if (!state.hooks.standalone || err instanceof ContinueAsNew || isCancellation(err)) return;
  await firePromptHook(state, 'SessionEnd', 'exit', { fields: { reason: 'exit' } });
}

/** BeforeModel, then BeforeToolSelection, before one model request. */
export async function beforeModel(
  run: PromptRun,
  toolNames: string[],
): Promise<{ end?: Ending; hooks?: ModelHookInput; toolNames: string[]; allows: (name: string) => boolean }> {
  const { state, cursor } = run;
  const plain = { toolNames, allows: () => true };
  if (!hasHooks(state, 'BeforeModel') && !hasHooks(state, 'BeforeToolSelection')) return plain;
  const llm = {
    transcriptId: cursor.transcriptId,
    length: cursor.length,
    append: cursor.append,
    model: state.progress.model,
    toolNames,
  };
  const before = await firePromptHook(state, 'BeforeModel', undefined, { fields: {}, llm });
  if (before?.stop || (before?.blocked && !before.responseRef)) {
    await recordPending(run);
    return {
      ...plain,
      end: stopped(state, before.stop ? 'agent_execution_stopped' : 'agent_execution_blocked', before),
    };
  }
  const selection = await firePromptHook(state, 'BeforeToolSelection', undefined, { fields: {}, llm });
  const config = selection?.toolConfig;
  const allowed =
    config &&
    (config.mode === 'NONE' ? [] : config.allowedFunctionNames.length > 0 ? config.allowedFunctionNames : undefined);
  const allows = (name: string) => !allowed || allowed.includes(name);
  const hooks: ModelHookInput = {
    requestRef: before?.requestRef,
    responseRef: before?.responseRef,
    toolMode: config?.mode,
  };
  return { hooks, toolNames: toolNames.filter(allows), allows };
}

/** AfterModel: the hooks may replace the answer (then text only) or stop the prompt after it. */
export async function afterModel(run: PromptRun, turn: ModelTurn): Promise<void> {
  const { state, cursor } = run;
  if (turn.overflow || !hasHooks(state, 'AfterModel')) return;
  const llm = {
    transcriptId: cursor.transcriptId,
    length: turn.transcriptLength - 1,
    append: [],
    model: turn.model,
    responseAt: turn.transcriptLength - 1,
  };
  const decision = await firePromptHook(state, 'AfterModel', undefined, { fields: {}, llm });
  if (!decision) return;
  if (decision.modelResponse)
    Object.assign(turn, {
      text: decision.modelResponse.text,
      finishReason: decision.modelResponse.finishReason,
      functionCalls: [],
      thoughts: [],
    });
  if (decision.stop) hookStop(state, effectiveReason(decision.reason));
}

/** Gemini CLI resets the chat; here the conversation goes on in a fresh, empty transcript. */
function clearContext(run: PromptRun): void {
  const state = run.state;
  run.moveTo(`${workflowInfo().workflowId}/cleared-${hooksCleared(state)}`, 0);
  setLastPromptTokens(state, 0);
  emit(state, { type: 'warning', message: 'a hook cleared the conversation context' });
}

function stopped(
  state: PromptState,
  type: 'agent_execution_stopped' | 'agent_execution_blocked',
  decision: Pick<HookDecision, 'reason'> & { systemMessage?: string },
): Ending {
  emit(state, { type, reason: effectiveReason(decision.reason), systemMessage: decision.systemMessage });
  return { kind: 'result', reason: 'stopped' };
}

/** Writes the pending user message (function responses first of all) so every call keeps its one response. */
export async function recordPending(run: PromptRun): Promise<void> {
  const cursor = run.cursor;
  if (cursor.append.length === 0) return;
  const length = await run.acts.recordMessage({
    transcriptId: cursor.transcriptId,
    index: cursor.length,
    append: cursor.append,
  });
  run.recorded(length);
}
