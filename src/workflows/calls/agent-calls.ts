import { executeChild, isCancellation, workflowInfo } from '@temporalio/workflow';
import { hasBlobMarkers, isBlobMarker } from '../../core/blob-marker';
import { activitiesFor } from '../state/activity-options';
import { oneLine } from '../state/summaries';
import type { AgentDefinition } from '../../core/agents/definition';
import { completeTaskOutputText } from '../../core/agents/complete-task';
import { subAgentModel } from '../../core/models';
import {
  findAgent,
  invokeAgentDescription,
  subagentResultText,
  unknownAgentMessage,
} from '../../core/agents/invoke-agent';
import { invokeAgentTool } from '../../tools/invoke-agent';
import { toFunctionDeclaration, type FunctionDeclaration } from '../../tools';
import type { PromptState } from '../state/prompt-state';
import type { CallRecord, SubagentInput, SubagentResult } from '../api';
import { isPatched, PATCHES } from '../patches';
import { recordChildUsage } from '../run/records';
import { noteChildCostPause } from '../run/book';
import { spentUsd } from '../state/spend';

/** The child's signature, by its registered name: importing the workflow itself would tie the layers in a circle. */
type SubagentWorkflow = (input: SubagentInput) => Promise<SubagentResult>;

/** `invoke_agent` as the main model sees it: the tool, described with the agents it can start. */
export function invokeAgentDeclaration(state: PromptState): FunctionDeclaration {
  return { ...toFunctionDeclaration(invokeAgentTool), description: invokeAgentDescription(agentsOf(state)) };
}

/** The agents this prompt may start: the input's (built-ins and the user's), or the built-ins. */
export function agentsOf(state: PromptState): readonly AgentDefinition[] {
  return state.settings.agents;
}

/**
 * `invoke_agent`: runs the agent as a child workflow (durable, with its own limits and history) and
 * answers with its structured result. Cancelling this prompt cancels the child; its token usage is
 * added to this prompt's totals and budget.
 */
export async function invokeAgent(
  state: PromptState,
  record: CallRecord,
): Promise<{ ok: boolean; text: string; responseRef?: string }> {
  const name = String(record.args.agent_name ?? '');
  const agent = findAgent(agentsOf(state), name);
  if (!agent) return { ok: false, text: unknownAgentMessage(name, agentsOf(state)) };
  const childWorkflowId = `${workflowInfo().workflowId}--${record.callId}`;
  try {
    const input = childInput(state, agent, record);
    const result = await executeChild<SubagentWorkflow>('subagentWorkflow', {
      workflowId: childWorkflowId,
      args: [input],
      // The Web UI's line for it: the agent and its task (start-command metadata, not compared on replay).
      staticSummary: oneLine(`${agent.name}: ${input.prompt}`),
    }).finally(() => noteChildCostPause(state, { childWorkflowId, paused: false }));
    addChildUsage(state, result);
    if (
      result.terminateReason === 'goal' &&
      result.output &&
      hasBlobMarkers(result.output) &&
      isPatched(PATCHES.agentResult)
    ) {
      const stored = await activitiesFor(state.settings).agentResult({
        agentName: name,
        reason: 'goal',
        output: result.output,
      });
      return { ok: true, text: stored.preview, responseRef: stored.responseRef };
    }
    const text =
      result.terminateReason === 'goal' && result.output
        ? completeTaskOutputText(result.output)
        : (result.error?.message ?? result.terminateReason);
    return { ok: result.terminateReason === 'goal', text: subagentResultText(name, result.terminateReason, text) };
  } catch (err) {
    if (isCancellation(err)) throw err;
    const cause = (err as { cause?: { message?: string } }).cause;
    const message = cause?.message ?? (err instanceof Error ? err.message : String(err));
    return { ok: false, text: subagentResultText(name, 'error', message) };
  }
}

function childInput(state: PromptState, agent: AgentDefinition, record: CallRecord): SubagentInput {
  const input = state.input;
  // A long task is a blob marker: the child reads it from the store with its first request.
  const task = record.args.prompt;
  return {
    agent,
    ...(isBlobMarker(task) ? { prompt: task.preview, promptRef: task.$blob } : { prompt: String(task ?? '') }),
    parent: { workflowId: workflowInfo().workflowId, callId: record.callId },
    workspace: input.workspace,
    ...(input.host ? { host: input.host, hostIsLocal: input.hostIsLocal } : {}),
    model: subAgentModel(agent.model, state.progress.model),
    approvalMode: state.progress.mode,
    policyRules: input.policyRules,
    sessionRules: state.progress.sessionRules,
    shellTimeoutMs: input.shellTimeoutMs,
    toolHeartbeatTimeoutMs: input.toolHeartbeatTimeoutMs,
    modelHeartbeatTimeoutMs: input.modelHeartbeatTimeoutMs,
    approvalTimeoutMs: input.approvalTimeoutMs,
    modelRetryInitialMs: input.modelRetryInitialMs,
    modelMaxAttempts: input.modelMaxAttempts,
    searchAttributes: input.searchAttributes,
    ...(input.web ? { web: input.web } : {}),
    ...(input.modelPrices ? { modelPrices: input.modelPrices } : {}),
    ...(state.mcp ? { mcp: state.mcp, mcpServers: input.mcpServers } : {}),
    ...(state.context.memoryRef ? { memoryRef: state.context.memoryRef } : {}),
    ...childCostLimit(state),
  };
}

/** A sub-agent may spend what its parent has left: its spend is the parent's (added when it returns). */
function childCostLimit(state: PromptState): Pick<SubagentInput, 'maxCostUsd'> {
  const limit = state.context.costLimitUsd;
  return limit === undefined ? {} : { maxCostUsd: Math.max(0, limit - spentUsd(state.progress.stats)) };
}

function addChildUsage(state: PromptState, result: SubagentResult): void {
  recordChildUsage(state, result.stats);
}
