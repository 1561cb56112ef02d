import { CancellationScope, ContinueAsNew, isCancellation, setHandler, workflowInfo } from '@temporalio/workflow';
import {
  afterAgentAtEnding,
  afterModel,
  beforeModel,
  beginPrompt,
  endPromptOnFailure,
  finishOrContinue,
  recordPending,
  stopIfHookSaid,
} from './prompt/agent-hooks';
import type { LoopDetection } from '../core/loop/detection';
import type { ModelTurn } from '../core/types';
import { toolNames } from '../tools';
import { activitiesFor } from './state/activity-options';
import { PromptRun } from './run/prompt-run';
import { registerApprovalHandlers } from './calls/approvals';
import { beforeRequest, checkBudget, registerContextHandlers } from './guards/context';
import { endWithRecord, failPrompt, recordCancellation, settle, type Ending } from './prompt/settle';
import { FAILURES } from '../core/failures';
import { checkBeforeRequest, observeTurn, onDetection, registerLoopHandlers } from './guards/loop';
import { eventsQuery, statusQuery, type PromptInput, type PromptResult, type Cursor } from './api';
import { callWithFallback, chooseModel, continuation } from './guards/model-choice';
import { createPromptState, eventsPage, statusOf, type PromptState } from './state/prompt-state';
import { emit, recordUtilityUsage } from './run/records';
import { continueAsNewIfSuggested, restoreCarry } from './prompt/carry';
import { toolsForMode } from './calls/workflow-tools';
import { invokeAgentDeclaration } from './calls/agent-calls';
import { skillDeclarations, skillsOf } from './calls/skill-calls';
import { runTurn, type TurnFrame, type TurnOutcome } from './prompt/turn';
import { continueAfterInvalidStream } from './prompt/invalid-stream';
import { checkTurnLimits } from './prompt/limits';
import { addReferencedFiles } from './prompt/at-paths';
import { loadProjectMemory } from './prompt/memory';
import { discoverMcp, mcpToolNames } from './calls/mcp-calls';
import { promptShape } from '../core/prompt/shape';
import { checkSpend } from './guards/spend';
import { registerChildSpendHandlers } from './guards/child-spend';

/**
 * One user prompt, as Gemini CLI's loop: model turn; run its function calls; send their responses;
 * repeat until the model answers without calls, a limit is reached, or the prompt is cancelled.
 * The conversation lives in the transcript store; history carries references and small results.
 */
export async function agentPromptWorkflow(input: PromptInput): Promise<PromptResult> {
  const state = createPromptState(input);
  const run = new PromptRun(state, activitiesFor(state.settings));
  setHandler(statusQuery, () => statusOf(state));
  setHandler(eventsQuery, (cursor: number) => eventsPage(state, cursor));
  registerApprovalHandlers(state);
  registerLoopHandlers(run);
  registerContextHandlers(run);
  registerChildSpendHandlers(run);
  run.startAt(input.resume ? restoreCarry(state, input.resume) : startCursor(state));
  return settle(run, await loop(run));
}

/**
 * The loop until an ending. Ordinary endings come back as values; what is thrown here is continue-as-new, a
 * cancellation (its open calls are answered first) or an unexpected error, which fails the prompt.
 */
async function loop(run: PromptRun): Promise<Ending> {
  const state = run.state;
  try {
    // A resumed run (continue-as-new) has read its references and context, fired BeforeAgent and chosen its model.
    if (!state.input.resume) await addReferencedFiles(run);
    if (!state.input.resume) await loadProjectMemory(run);
    const blocked = await beginPrompt(run);
    if (blocked) return blocked;
    if (!state.input.resume) await chooseModel(run);
    await discoverMcp(run);
    for (;;) {
      await continueAsNewIfSuggested(run);
      const ending = await step(run);
      if (ending) return ending;
    }
  } catch (err) {
    if (err instanceof ContinueAsNew) throw err;
    if (isCancellation(err)) {
      await CancellationScope.nonCancellable(() => recordCancellation(run));
      throw err;
    }
    await afterAgentAtEnding(state, 'error');
    await endPromptOnFailure(state, err);
    throw failPrompt(run, err);
  }
}

/** A new prompt: its message goes at the end of its transcript (a session's, or one of its own). */
function startCursor(state: PromptState): Cursor {
  const input = state.input;
  emit(state, { type: 'user_prompt', text: input.prompt });
  return {
    transcriptId: input.transcript?.id ?? workflowInfo().workflowId,
    length: input.transcript?.length ?? 0,
    append: [
      { kind: 'text', text: input.prompt },
      ...(input.media ?? []).map((m) => ({ kind: 'media' as const, ...m })),
    ],
  };
}

/**
 * One model request and its tool calls, in Gemini CLI's order: limits, compression, the LLM loop
 * check, the request (the overflow check is its first step), loop heuristics, tools. Returns the
 * result when the prompt is done, undefined to go on.
 */
export async function step(run: PromptRun): Promise<Ending | undefined> {
  const state = run.state;
  const limited = await checkTurnLimits(run);
  if (limited) return limited;
  if ((await checkBudget(run)) === 'stop') return stopOnBudget(run);
  await beforeRequest(run);
  const early = await checkBeforeRequest(state, askLoopJudge(run));
  if (early) return handleLoop(run, early);
  const hooked = await beforeModel(
    run,
    toolsForMode([...toolNames, ...mcpToolNames(state)], state.progress.mode).filter(
      (name) => name !== 'complete_task' && (name !== 'activate_skill' || skillsOf(state).length > 0),
    ),
  );
  if (hooked.end) return hooked.end;
  const outcome = await promptTurn(run, hooked);
  if ('ending' in outcome) return outcome.ending;
  if (outcome.kind === 'overflow') return overflow(run, outcome.fit);
  if (outcome.kind === 'stopped') return stopOnBudget(run);
  if (outcome.kind === 'abandoned') return handleLoop(run, outcome.verdict);
  if (outcome.kind === 'called') return stopIfHookSaid(run);
  const more = await continuation(run);
  if (!more) return finishOrContinue(run);
  run.setMessage(more);
  return undefined;
}

/** The prompt's model turn and its calls; a turn whose answer stayed invalid may end the prompt or go on. */
async function promptTurn(
  run: PromptRun,
  hooked: Awaited<ReturnType<typeof beforeModel>>,
): Promise<TurnOutcome<LoopDetection> | { ending: Ending | undefined }> {
  const state = run.state;
  try {
    return await runTurn(run, {
      frame: promptFrame(state, hooked),
      send: (ask) => callWithFallback(state, ask),
      review: async (turn) => {
        await afterModel(run, turn);
        // A looping turn is abandoned, as Gemini CLI abandons it: what it answered is sent again.
        return observeTurn(state, turn);
      },
    });
  } catch (err) {
    return { ending: await continueAfterInvalidStream(run, err) };
  }
}
/** What the prompt's requests carry besides the conversation: the tools the hooks left, their overrides. */
function promptFrame(state: PromptState, hooked: Awaited<ReturnType<typeof beforeModel>>): TurnFrame {
  return {
    toolNames: hooked.toolNames,
    extraDeclarations: [invokeAgentDeclaration(state), ...skillDeclarations(state)].filter((d) =>
      hooked.allows(d.name),
    ),
    lastPromptTokens: state.context.lastPromptTokens,
    hooks: hooked.hooks,
    ...(state.context.memoryRef ? { memoryRef: state.context.memoryRef } : {}),
    ...(state.mcp?.declarationsRef ? { mcpDeclarationsRef: state.mcp.declarationsRef } : {}),
    ...promptShape({
      mode: state.progress.mode,
      unattended: state.input.unattended,
      systemMd: state.input.systemMd,
      skills: skillsOf(state),
    }),
    // The activity checks the stream from where the workflow's tracking stands; off means never cut.
    ...(state.loop.disabled ? {} : { contentLoop: state.loop.content }),
  };
}

/** The LLM loop check's question to one judge model, its tokens counted in the prompt's stats. */
function askLoopJudge(run: PromptRun) {
  return async (model: string) => {
    const planned = { model, promptTokens: run.state.context.lastPromptTokens, what: 'loop check' };
    if ((await checkSpend(run, planned)) === 'stop') return undefined;
    const verdict = await run.acts.checkForLoop({
      transcriptId: run.cursor.transcriptId,
      length: run.cursor.length,
      model,
      prompt: run.state.input.prompt,
    });
    recordUtilityUsage(run.state, verdict);
    return verdict;
  };
}

/** A first detection adds the recovery message to the next request; a final one ends the prompt. */
async function handleLoop(run: PromptRun, detection: LoopDetection): Promise<Ending | undefined> {
  const next = await onDetection(run, detection);
  if ('recover' in next) run.addParts({ kind: 'text', text: next.recover });
  if (!('stop' in next)) return undefined;
  const message = `Stopped: the prompt kept repeating itself (${detection.detail}).`;
  return { kind: 'failure', reason: 'loop_detected', type: FAILURES.loopDetected.type, message };
}

/** Gemini CLI's step 6: even after compression the next request cannot fit, so it is not sent. */
function overflow(run: PromptRun, fit: NonNullable<ModelTurn['overflow']>): Promise<Ending> {
  emit(run.state, { type: 'context_window_will_overflow', ...fit });
  const message =
    `The next request (about ${fit.estimatedRequestTokens} tokens) does not fit the ` +
    `${fit.remainingTokens} tokens left in the model's context window.`;
  return endWithRecord(run, 'context_overflow', FAILURES.contextWindowOverflow.type, message);
}

/** A person answered an exhausted budget or the spending limit with "stop": the prompt ends as it stands. */
async function stopOnBudget(run: PromptRun): Promise<Ending> {
  await recordPending(run);
  await afterAgentAtEnding(run.state, 'stopped');
  return { kind: 'result', reason: 'stopped', sessionEnd: false };
}
