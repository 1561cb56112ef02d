import { CancellationScope, isCancellation, setHandler, sleep, workflowInfo } from '@temporalio/workflow';
import { resolveAgentTools } from '../core/agents/definition';
import { finishInstructions, recoveryMessage, recoveryTurnToolMessage, type RecoverableReason, type SubagentTerminateReason } from '../core/agents/recovery';
import type { FunctionCall, ModelTurn, NewPart } from '../core/types';
import { toolNames } from '../tools';
import { completeTaskDeclaration } from '../core/agents/complete-task';
import { activitiesFor, type PromptActivities } from './state/activity-options';
import { registerApprovalHandlers } from './tools/approvals';
import { failPrompt, recordCancellation } from './prompt/endings';
import { eventsQuery, statusQuery, type SubagentResult, type SubagentInput, type Cursor } from './api';
import { SUBAGENT_FAILURE_PREFIX } from '../core/failures';
import { createPromptState, emit, eventsPage, recordUsage, statusOf, type PromptState } from './state/prompt-state';
import { runToolCalls, settleCalls } from './tools/run-calls';
import { adoptCallIds } from './state/call-ids';
import { callFramed } from './state/request-frame';

/**
 * One sub-agent run, as Gemini CLI's local executor: model turn, its allowed tools (anything else is
 * answered "unauthorized"), repeat, until it calls complete_task with output that fits its schema.
 * On max turns, timeout or an answer without complete_task, one recovery turn asks for complete_task
 * within a grace period; an accepted output then still counts as the goal.
 */
export async function subagentWorkflow(input: SubagentInput): Promise<SubagentResult> {
  const agent = input.agent;
  const state = createPromptState({ ...input, maxTurns: agent.maxTurns });
  state.agent = agent;
  const tools = resolveAgentTools(agent, toolNames);
  // Plan mode belongs to the main prompt; a sub-agent runs in the mode it was started in.
  state.agentTools = tools.ok ? tools.tools.filter((name) => name !== 'enter_plan_mode' && name !== 'exit_plan_mode') : [];
  setHandler(statusQuery, () => statusOf(state));
  setHandler(eventsQuery, (cursor: number) => eventsPage(state, cursor));
  registerApprovalHandlers(state);
  const acts = activitiesFor(state.settings);
  const cursor: Cursor = { transcriptId: workflowInfo().workflowId, length: 0, append: [{ kind: 'text', text: input.prompt }] };
  const open = { calls: [] as FunctionCall[] };
  let timedOut = false;
  // The run's time limit is a workflow timer; a cancelled run cancels it, which is not an error.
  void sleep(agent.maxMinutes * 60_000).then(
    () => (timedOut = true),
    () => undefined,
  );
  emit(state, { type: 'user_prompt', text: input.prompt });
  try {
    if (!tools.ok) return finish(state, 'error', tools.message);
    let reason: SubagentTerminateReason | undefined;
    while (!reason) reason = await agentStep(state, acts, cursor, open, () => timedOut);
    if (reason !== 'goal') reason = await recoveryTurn(state, acts, cursor, reason);
    return finish(state, reason);
  } catch (err) {
    if (isCancellation(err)) {
      await CancellationScope.nonCancellable(() => recordCancellation(state, acts, cursor, open.calls));
      throw err;
    }
    throw failPrompt(state, err);
  }
}

async function agentStep(state: PromptState, acts: PromptActivities, cursor: Cursor, open: { calls: FunctionCall[] }, timedOut: () => boolean): Promise<SubagentTerminateReason | undefined> {
  if (timedOut()) return 'timeout';
  if (state.progress.turns >= state.input.maxTurns) return 'max_turns';
  const turn = await modelTurn(state, acts, cursor);
  if (turn.functionCalls.length === 0) return 'no_complete_task';
  open.calls = turn.functionCalls;
  cursor.append = await runToolCalls(state, turn.functionCalls, acts.runTool);
  open.calls = [];
  return state.completion ? 'goal' : undefined;
}

async function modelTurn(state: PromptState, acts: PromptActivities, cursor: Cursor): Promise<ModelTurn> {
  const agent = state.agent!;
  state.progress.turns += 1;
  const request = {
    transcriptId: cursor.transcriptId,
    baseLength: cursor.length,
    append: cursor.append,
    model: state.progress.model,
    workspace: state.input.workspace,
    toolNames: [...(state.agentTools ?? []), 'complete_task'],
    turn: state.progress.turns,
    callIdPrefix: `${state.input.parent?.callId ?? agent.name}.`,
    systemPrompt: `${agent.systemPrompt}\n\n${finishInstructions(agent)}`,
    extraDeclarations: [completeTaskDeclaration(agent.outputSchema)],
  };
  const turn = await callFramed(state, request, acts.callModel);
  Object.assign(cursor, { length: turn.transcriptLength, append: [] as NewPart[] });
  if (turn.text) emit(state, { type: 'content', turn: state.progress.turns, text: turn.text });
  adoptCallIds(state, turn.functionCalls);
  for (const call of turn.functionCalls) emit(state, { type: 'tool_call_request', turn: state.progress.turns, callId: call.id, name: call.name, args: call.args });
  recordUsage(state, turn.model, turn.usage);
  return turn;
}

/**
 * The final warning turn: within the grace period the agent may only call complete_task. Other
 * calls are answered without running, so every call still gets its one response.
 */
async function recoveryTurn(state: PromptState, acts: PromptActivities, cursor: Cursor, reason: RecoverableReason | SubagentTerminateReason): Promise<SubagentTerminateReason> {
  const agent = state.agent!;
  if (reason !== 'max_turns' && reason !== 'timeout' && reason !== 'no_complete_task') return reason;
  emit(state, { type: 'warning', message: `recovery turn after ${reason}` });
  cursor.append = [...cursor.append, { kind: 'text', text: recoveryMessage(reason, agent) }];
  let turn: ModelTurn;
  try {
    turn = await CancellationScope.withTimeout(agent.recoveryGraceSeconds * 1000, () => modelTurn(state, acts, cursor));
  } catch (err) {
    if (isCancellation(err) && !CancellationScope.current().consideredCancelled) return reason;
    throw err;
  }
  const completes = turn.functionCalls.filter((c) => c.name === 'complete_task');
  const others = turn.functionCalls.filter((c) => c.name !== 'complete_task');
  const answered = [...(await runToolCalls(state, completes, acts.runTool)), ...settleCalls(state, others, recoveryTurnToolMessage('that tool'))];
  if (answered.length > 0) await acts.recordMessage({ transcriptId: cursor.transcriptId, index: cursor.length, append: answered });
  return state.completion ? 'goal' : reason;
}

function finish(state: PromptState, reason: SubagentTerminateReason, detail?: string): SubagentResult {
  state.finished = true;
  state.terminateReason = reason === 'goal' ? 'completed' : 'error';
  const error = reason === 'goal' ? undefined : { type: `${SUBAGENT_FAILURE_PREFIX}${reason}`, message: detail ?? reason };
  if (error) state.error = error;
  return { terminateReason: reason, output: state.completion, turns: state.progress.turns, stats: state.progress.stats, error };
}
