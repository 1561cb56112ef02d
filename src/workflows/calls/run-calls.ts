import type { CallRecord } from '../api';
import type { FunctionCall, NewPart, ToolOutcome } from '../../core/types';
import { planWaves } from '../../core/waves';
import { runWorkflowTool } from './workflow-tools';
import type { WorkflowToolResult } from './tool-result';
import { modelIdOf } from '../state/call-ids';
import { unauthorizedToolMessage } from '../../core/agents/recovery';
import { findTool, parseToolArgs } from '../../tools';
import { isReadOnly, type ToolErrorKind } from '../../tools/types';
import type { PromptState } from '../state/prompt-state';
import { countToolCall, emit } from '../run/records';
import { afterTool } from '../hooks/tool-hooks';
import { permit } from './permit';
import { runActivityCall } from './edit-calls';
import type { PromptRun } from '../run/prompt-run';
import type { SubagentScope } from '../run/subagent-scope';
import { mcpArgsProblem, mcpToolOf, runMcpCall } from './mcp-calls';
import { executedArgs } from './executed-args';
import { settleCall, trackCall } from '../run/book';
import { checkpointBeforeCall } from './checkpoint-calls';
import { checkWaveSpend, type SpendGate } from './tool-spend';

const CANCELLED_BY_USER = 'User cancelled operation.';
const SPEND_STOPPED = 'Not run: model requests of this turn could cross the spending limit, and spending was stopped.';
/** AfterTool tail calls chain at most this deep (ids `<call>~tail~tail…`). */
const TAIL_SUFFIX = '~tail';
const MAX_TAIL_CALLS = 3;

/**
 * Runs one turn's calls as Gemini CLI's waves: consecutive read-only calls together, every other
 * call alone and in order. Returns exactly one function response per call, in call order
 * (invariant 2). A `cancel` answer cancels that call and every call queued after it; so does a stop at the
 * spending limit, which `gate` checks before a wave whose tools send model requests of their own.
 */
export async function runToolCalls(run: PromptRun, calls: FunctionCall[], gate?: SpendGate): Promise<NewPart[]> {
  const state = run.state;
  const outcomes = new Map<string, ToolOutcome>();
  let cancelled: string | undefined;
  for (const wave of planWaves(calls, (call) => parallelSafe(state, call))) {
    if (!cancelled && (await checkWaveSpend(run, wave, gate)) === 'stop') cancelled = SPEND_STOPPED;
    if (cancelled) {
      for (const call of wave) outcomes.set(call.id, finishInline(state, track(state, call), 'cancelled', cancelled));
      continue;
    }
    const results = await Promise.all(wave.map((call) => processCall(run, call)));
    for (const result of results) {
      outcomes.set(result.callId, result);
      if (result.errorKind === 'cancelled') cancelled = CANCELLED_BY_USER;
    }
  }
  return calls.map((call) => toNewPart(outcomes.get(call.id)!, call));
}

/** One response per call of an interrupted turn: its result if it finished, else cancelled. */
export function settleCalls(state: PromptState, calls: FunctionCall[], reason: string): NewPart[] {
  return calls.map((call) => {
    const record = track(state, call);
    return toNewPart(record.outcome ?? finishInline(state, record, 'cancelled', reason), call);
  });
}

async function processCall(run: PromptRun, call: FunctionCall): Promise<ToolOutcome> {
  const { state, acts } = run;
  const record = track(state, call);
  const unauthorized = authorize(run.subagent, call.name);
  if (unauthorized) return finishInline(state, record, 'policy_violation', unauthorized);
  if (call.invalid) return finishInline(state, record, 'invalid_tool_params', call.invalid);
  const mcp = mcpToolOf(state, call.name);
  const parsed = mcp ? undefined : parseToolArgs(call.name, call.args);
  if (parsed && !parsed.ok) return finishInline(state, record, parsed.error.kind, parsed.error.message);
  const badMcpArgs = mcp && mcpArgsProblem(record);
  if (badMcpArgs) return finishInline(state, record, 'invalid_tool_params', badMcpArgs);
  const refusal = await permit(state, record, run.subagent?.definition.outputSchema);
  if (refusal) return finishInline(state, record, refusal.kind, refusal.message);
  await checkpointBeforeCall(run, record);
  if (parsed?.tool.runsIn === 'workflow') return finishWorkflowTool(run, record, await runWorkflowTool(run, record));
  const outcome = mcp ? await runMcpCall(state, record, mcp, acts) : await runActivityCall(state, record, acts);
  return finish(state, record, await afterHooks(run, record, outcome));
}

/** AfterTool; a tail call it asks for runs as a call of its own, whose result answers this one. */
async function afterHooks(run: PromptRun, record: CallRecord, outcome: ToolOutcome): Promise<ToolOutcome> {
  const after = await afterTool(run.state, record, outcome);
  if (!after.tail || record.callId.split(TAIL_SUFFIX).length > MAX_TAIL_CALLS) return after.outcome;
  const tail = await processCall(run, {
    id: `${record.callId}${TAIL_SUFFIX}`,
    name: after.tail.name,
    args: after.tail.args,
  });
  return { ...tail, callId: record.callId, name: record.name };
}

async function finishWorkflowTool(
  run: PromptRun,
  record: CallRecord,
  result: WorkflowToolResult,
): Promise<ToolOutcome> {
  const state = run.state;
  if (!result.ok) return finishInline(state, record, 'execution_failed', result.text);
  const outcome: ToolOutcome = {
    callId: record.callId,
    name: record.name,
    ok: true,
    ...(result.responseRef ? { responseRef: result.responseRef } : { response: { output: result.text } }),
    preview: result.text.slice(0, 300),
  };
  return finish(state, record, await afterHooks(run, record, outcome));
}

/** A sub-agent may call only its own tools and complete_task; anything else is answered, not run. */
function authorize(subagent: SubagentScope | undefined, name: string): string | undefined {
  if (!subagent || name === 'complete_task' || subagent.tools.includes(name)) return undefined;
  return unauthorizedToolMessage(name, subagent.definition.name, [...subagent.tools]);
}

function track(state: PromptState, call: FunctionCall): CallRecord {
  return trackCall(state, call);
}

function finishInline(state: PromptState, record: CallRecord, kind: ToolErrorKind, message: string): ToolOutcome {
  const text = kind === 'cancelled' ? `[Operation Cancelled] Reason: ${message}` : message;
  const outcome: ToolOutcome = {
    callId: record.callId,
    name: record.name,
    ok: false,
    response: { error: text },
    preview: text,
    errorKind: kind,
  };
  return finish(state, record, outcome);
}

function finish(state: PromptState, record: CallRecord, outcome: ToolOutcome): ToolOutcome {
  settleCall(record, outcome);
  countToolCall(state, outcome.ok);
  emit(state, {
    type: 'tool_call_response',
    callId: record.callId,
    name: record.name,
    ok: outcome.ok,
    preview: outcome.preview,
    errorKind: outcome.errorKind,
    ...executedArgs(state, record),
  });
  return outcome;
}

function parallelSafe(state: PromptState, call: FunctionCall): boolean {
  const tool = findTool(call.name);
  const mcp = mcpToolOf(state, call.name);
  const readOnly = mcp ? mcp.readOnly : !tool || isReadOnly(tool);
  return readOnly && call.args.wait_for_previous !== true;
}

/** The function response answers the call as the model made it: its id, even where the prompt renamed it. */
function toNewPart(outcome: ToolOutcome, call: FunctionCall): NewPart {
  return {
    kind: 'functionResponse',
    callId: modelIdOf(call),
    name: outcome.name,
    response: outcome.response,
    responseRef: outcome.responseRef,
  };
}
