import { CancellationScope, isCancellation, setHandler, sleep, workflowInfo } from '@temporalio/workflow';
import { resolveAgentTools } from '../core/agents/definition';
import {
  failureReport,
  finishInstructions,
  isRecoverable,
  recoveryMessage,
  recoveryTurnToolMessage,
  type RecoverableReason,
  type SubagentTerminateReason,
} from '../core/agents/recovery';
import { findTool, toolNames } from '../tools';
import { completeTaskDeclaration } from '../core/agents/complete-task';
import { activitiesFor } from './state/activity-options';
import { PromptRun } from './run/prompt-run';
import type { SubagentScope } from './run/subagent-scope';
import { registerApprovalHandlers } from './calls/approvals';
import { registerTopUpHandler } from './guards/context';
import { failPrompt, recordCancellation } from './prompt/settle';
import { eventsQuery, statusQuery, type SubagentResult, type SubagentInput } from './api';
import { SUBAGENT_FAILURE_PREFIX } from '../core/failures';
import { createPromptState, eventsPage, statusOf, type PromptState } from './state/prompt-state';
import { emit } from './run/records';
import { runToolCalls, settleCalls } from './calls/run-calls';
import { mcpToolNames } from './calls/mcp-calls';
import { runTurn, takeTurn, type TakenTurn, type TurnFrame, type TurnSpec } from './prompt/turn';
import { compressionDue, maybeCompress } from './guards/context';
import { callWithFallback, chooseModel } from './guards/model-choice';
import { autoRoutingModels } from '../core/models';
import { isPatched, PATCHES } from './patches';
import { setMemoryRef } from './run/context-part';
import { setMcp } from './run/progress';

/**
 * One sub-agent run, as Gemini CLI's local executor: model turn, its allowed tools (anything else is
 * answered "unauthorized"), repeat, until it calls complete_task with output that fits its schema.
 * On max turns, timeout or an answer without complete_task, one recovery turn asks for complete_task
 * within a grace period; an accepted output then still counts as the goal.
 */
export async function subagentWorkflow(input: SubagentInput): Promise<SubagentResult> {
  const agent = input.agent;
  const state = createPromptState({ ...input, maxTurns: agent.maxTurns });
  if (input.memoryRef) setMemoryRef(state, input.memoryRef);
  if (input.mcp) setMcp(state, input.mcp);
  const tools = resolveAgentTools(agent, [...toolNames, ...mcpToolNames(state)]);
  // Plan mode belongs to the main prompt; a sub-agent runs in the mode it was started in.
  const allowed = tools.ok ? tools.tools.filter((name) => findTool(name)?.kind !== 'plan') : [];
  setHandler(statusQuery, () => statusOf(state));
  setHandler(eventsQuery, (cursor: number) => eventsPage(state, cursor));
  registerApprovalHandlers(state);
  const run = new PromptRun(state, activitiesFor(state.settings), { definition: agent, tools: allowed }) as SubagentRun;
  registerTopUpHandler(run);
  run.startAt({
    transcriptId: workflowInfo().workflowId,
    length: 0,
    append: [{ kind: 'text', text: input.prompt, ...(input.promptRef ? { textRef: input.promptRef } : {}) }],
  });
  let timedOut = false;
  // The run's time limit is a workflow timer; a cancelled run cancels it, which is not an error.
  void sleep(agent.maxMinutes * 60_000).then(
    () => (timedOut = true),
    () => undefined,
  );
  emit(state, { type: 'user_prompt', text: input.prompt });
  try {
    if (!tools.ok) return finish(run, { reason: 'error', detail: tools.message });
    // An `auto` model is routed once per run, as the prompt does (a parent's own choice arrives concrete).
    if (autoRoutingModels(input.model) && isPatched(PATCHES.subagentLoop)) await chooseModel(run);
    let stop: Stop | undefined;
    while (!stop) stop = await agentStep(run, () => timedOut);
    if (isRecoverable(stop.reason)) stop = { reason: await recoveryTurn(run, stop.reason) };
    return finish(run, stop);
  } catch (err) {
    if (isCancellation(err)) {
      await CancellationScope.nonCancellable(() => recordCancellation(run));
      throw err;
    }
    throw failPrompt(run, err);
  }
}

const SPENDING_LIMIT_STOP =
  "its next request could have taken the spend past the prompt's spending limit, so it was not sent";

/** A sub-agent's run: the prompt's owner with the sub-agent's own part. */
type SubagentRun = PromptRun & { readonly subagent: SubagentScope };

/** Why the run stops, with the message a failed run reports. */
interface Stop {
  reason: SubagentTerminateReason;
  detail?: string;
}

export async function agentStep(run: SubagentRun, timedOut: () => boolean): Promise<Stop | undefined> {
  const state = run.state;
  if (timedOut()) return { reason: 'timeout' };
  if (state.progress.turns >= state.input.maxTurns) return { reason: 'max_turns' };
  if (compressionDue(state) && isPatched(PATCHES.subagentLoop)) await maybeCompress(run);
  const outcome = await runTurn(run, agentSpec(run));
  if (outcome.kind === 'overflow') return overflowed(state, outcome.fit);
  if (outcome.kind === 'stopped') return { reason: 'error', detail: SPENDING_LIMIT_STOP };
  if (outcome.kind === 'answered') return { reason: 'no_complete_task' };
  return run.subagent.completion ? { reason: 'goal' } : undefined;
}

/** How a sub-agent takes a turn: its frame, and the prompt's fallback to another model on quota errors. */
function agentSpec(run: SubagentRun): TurnSpec<never> {
  return {
    frame: agentFrame(run),
    send: (ask) => callWithFallback(run.state, ask, () => isPatched(PATCHES.subagentLoop)),
  };
}

/**
 * A sub-agent's requests: its own system prompt, tools and sampling settings, complete_task, call ids
 * under its parent's, and the last prompt size for the activity's context-window check.
 */
function agentFrame(run: SubagentRun): TurnFrame {
  const { state, subagent } = run;
  const agent = subagent.definition;
  const sampling = { temperature: agent.temperature, topP: agent.topP };
  return {
    toolNames: [...subagent.tools, 'complete_task'],
    callIdPrefix: `${state.input.parent?.callId ?? agent.name}.`,
    systemPrompt: `${agent.systemPrompt}\n\n${finishInstructions(agent)}`,
    extraDeclarations: [completeTaskDeclaration(agent.outputSchema)],
    lastPromptTokens: state.context.lastPromptTokens,
    ...(state.context.memoryRef ? { memoryRef: state.context.memoryRef } : {}),
    ...(state.mcp?.declarationsRef ? { mcpDeclarationsRef: state.mcp.declarationsRef } : {}),
    ...(agent.temperature !== undefined || agent.topP !== undefined ? { sampling: definedOnly(sampling) } : {}),
  };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** A request that cannot fit ends the run: a recovery turn would not fit either. */
function overflowed(state: PromptState, fit: { estimatedRequestTokens: number; remainingTokens: number }): Stop {
  emit(state, { type: 'context_window_will_overflow', ...fit });
  const detail =
    `The next request (about ${fit.estimatedRequestTokens} tokens) does not fit the ` +
    `${fit.remainingTokens} tokens left in the model's context window.`;
  return { reason: 'error', detail };
}

/**
 * The final warning turn: within the grace period the agent may only call complete_task. Other
 * calls are answered without running, so every call still gets its one response.
 */
async function recoveryTurn(run: SubagentRun, reason: RecoverableReason): Promise<SubagentTerminateReason> {
  const { state, acts } = run;
  const agent = run.subagent.definition;
  emit(state, { type: 'warning', message: `recovery turn after ${reason}` });
  run.addParts({ kind: 'text', text: recoveryMessage(reason, agent) });
  let taken: TakenTurn<never>;
  try {
    taken = await CancellationScope.withTimeout(agent.recoveryGraceSeconds * 1000, () => takeTurn(run, agentSpec(run)));
  } catch (err) {
    if (isCancellation(err) && !CancellationScope.current().consideredCancelled) return reason;
    throw err;
  }
  if (taken.kind !== 'taken') return reason;
  const turn = taken.turn;
  const completes = turn.functionCalls.filter((c) => c.name === 'complete_task');
  const others = turn.functionCalls.filter((c) => c.name !== 'complete_task');
  const answered = [
    ...(await runToolCalls(run, completes)),
    ...settleCalls(state, others, recoveryTurnToolMessage('that tool')),
  ];
  if (answered.length > 0)
    await acts.recordMessage({ transcriptId: run.cursor.transcriptId, index: run.cursor.length, append: answered });
  return run.subagent.completion ? 'goal' : reason;
}

function finish(run: SubagentRun, { reason, detail }: Stop): SubagentResult {
  const state = run.state;
  const limits = { ...run.subagent.definition, turns: state.progress.turns };
  const error =
    reason === 'goal'
      ? undefined
      : { type: `${SUBAGENT_FAILURE_PREFIX}${reason}`, message: failureReport(reason, limits, detail) };
  run.end(reason === 'goal' ? 'completed' : 'error', error);
  return {
    terminateReason: reason,
    output: run.subagent.completion,
    turns: state.progress.turns,
    stats: state.progress.stats,
    error,
  };
}
