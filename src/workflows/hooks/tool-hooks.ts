import { workflowInfo } from '@temporalio/workflow';
import { effectiveReason, toolHookMessage } from '../../core/hooks/context';
import type { ToolOutcome } from '../../core/types';
import { parseToolArgs } from '../../tools';
import type { ToolErrorKind } from '../../tools/types';
import { firePromptHook } from './runner';
import type { PromptState } from '../state/prompt-state';
import type { CallRecord } from '../api';
import { hookStop } from '../run/context-part';
import { setCallArgs } from '../run/book';

type Refusal = { kind: ToolErrorKind; message: string };

/**
 * BeforeTool, before the approval step (after it in prompts older than the before-tool-before-approval patch): a
 * stop answers the call and stops the prompt at the next boundary, a block (or deny) answers it with
 * the reason, a rewrite merges `tool_input` into the arguments, which are parsed and put to the
 * policy again (`recheck`), so a hook cannot turn a call into one the policy denies. `ask` (when
 * nothing refuses the call) means a person must approve it, whatever the approval mode.
 */
export async function beforeTool(
  state: PromptState,
  record: CallRecord,
  recheck: (record: CallRecord) => Promise<Refusal | undefined>,
): Promise<Refusal | 'ask' | undefined> {
  const decision = await firePromptHook(state, 'BeforeTool', record.name, {
    fields: { tool_name: record.name, tool_input: record.args },
  });
  if (!decision) return undefined;
  if (decision.stop) {
    hookStop(state, effectiveReason(decision.reason));
    return { kind: 'policy_violation', message: toolHookMessage('stop', decision.reason) };
  }
  if (decision.blocked) return { kind: 'policy_violation', message: toolHookMessage('block-before', decision.reason) };
  const ask = decision.decision === 'ask' ? ('ask' as const) : undefined;
  if (!decision.toolInput) return ask;
  const args = { ...record.args, ...decision.toolInput };
  const parsed = parseToolArgs(record.name, args);
  if (!parsed.ok)
    return {
      kind: parsed.error.kind,
      message: `A BeforeTool hook rewrote the arguments into invalid ones: ${parsed.error.message}`,
    };
  setCallArgs(record, args);
  return (await recheck(record)) ?? ask;
}

/**
 * AfterTool, once the call has its outcome: the hooks may add context to the response or replace
 * it (block, stop), and may ask for a tail call whose result answers this call instead.
 */
export async function afterTool(
  state: PromptState,
  record: CallRecord,
  outcome: ToolOutcome,
): Promise<{ outcome: ToolOutcome; tail?: { name: string; args: Record<string, unknown> } }> {
  const decision = await firePromptHook(state, 'AfterTool', record.name, {
    fields: { tool_name: record.name, tool_input: record.args },
    toolResponse: { ref: outcome.responseRef, response: outcome.response },
  });
  if (!decision) return { outcome };
  if (decision.stop) hookStop(state, effectiveReason(decision.reason));
  let next = outcome;
  if (decision.toolResponseRef) {
    const replaced = decision.stop || decision.blocked;
    const preview = replaced
      ? toolHookMessage(decision.stop ? 'stop' : 'block-after', decision.reason)
      : outcome.preview;
    next = {
      ...outcome,
      ok: outcome.ok && !replaced,
      responseRef: decision.toolResponseRef,
      response: undefined,
      preview,
      errorKind: replaced ? 'policy_violation' : outcome.errorKind,
    };
  }
  return { outcome: next, tail: decision.stop || decision.blocked ? undefined : decision.tailToolCall };
}

/**
 * Notification (`ToolPermission`): a call is waiting for a person's approval. Advisory only.
 * `details` holds Gemini CLI's confirmation details (built by the hook activity) and ours.
 */
export async function notifyApproval(state: PromptState, record: CallRecord): Promise<void> {
  const mcp = state.mcp?.tools.find((tool) => tool.name === record.name);
  await firePromptHook(state, 'Notification', 'ToolPermission', {
    fields: {
      notification_type: 'ToolPermission',
      message: `Tool ${record.name} requires approval (call ${record.callId} of ${workflowInfo().workflowId})`,
      details: {
        workflow_id: workflowInfo().workflowId,
        call_id: record.callId,
        tool_name: record.name,
        tool_input: record.args,
      },
    },
    confirmation: {
      name: record.name,
      args: record.args,
      ...(mcp ? { mcp: { server: mcp.server, tool: mcp.tool } } : {}),
    },
  });
}

/** PreCompress: `manual` when a person asked for compression, `auto` otherwise. Advisory only. */
export async function preCompress(state: PromptState, trigger: 'manual' | 'auto'): Promise<void> {
  await firePromptHook(state, 'PreCompress', trigger, { fields: { trigger } });
}
