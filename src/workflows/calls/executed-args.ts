import { stableArgsJson } from '../../core/policy/engine';
import type { CallRecord } from '../api';
import type { PromptState } from '../state/prompt-state';

/**
 * `{ args, modified? }` for a call's response event when a BeforeTool hook or a `modify` approval rewrote the
 * arguments the model asked with (its `tool_call_request` event keeps those): what ran, beside what
 * was asked (`modified`: by the approval). Events live in workflow memory only, so this adds no workflow command.
 */
export function executedArgs(
  state: PromptState,
  record: CallRecord,
): { args?: Record<string, unknown>; modified?: true } {
  const asked = state.log.events.find((e) => e.type === 'tool_call_request' && e.callId === record.callId);
  if (!asked || asked.type !== 'tool_call_request') return {};
  const same = stableArgsJson((asked.args ?? {}) as Record<string, unknown>) === stableArgsJson(record.args);
  if (same) return {};
  return { args: record.args, ...(record.decision?.outcome === 'modify' ? { modified: true as const } : {}) };
}
