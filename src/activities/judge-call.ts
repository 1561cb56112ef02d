import type { JsonSchema } from '../core/agents/json-schema-check';
import {
  evaluatePolicy,
  sessionAllowRule,
  type PolicyContext,
  type PolicyRule,
  type PolicyVerdict,
} from '../core/policy/index';
import type { ShellNarrowing } from '../core/policy/index';
import type { ApprovalMode } from '../core/types';
import { resolveBlobMarkers } from '../store/blobs';
import { BlobMissingError, type TranscriptStore } from '../store/types';
import { parseToolArgs } from '../tools';
import { checkCompleteTask } from '../core/agents/complete-task';
import type { ToolErrorKind } from '../tools/types';

export interface JudgeCallInput {
  name: string;
  /** The arguments as the workflow holds them: blob markers are resolved here, from the store. */
  args: Record<string, unknown>;
  rules: PolicyRule[];
  context: PolicyContext;
  /** Also build the `proceed_always` rule, for this mode. */
  allowRuleFor?: ApprovalMode;
  /** How far that rule narrows a shell command (absent in inputs recorded before it existed). */
  narrowing?: ShellNarrowing;
  /** `complete_task` of a sub-agent: the output schema its full arguments must match. */
  outputSchema?: JsonSchema;
}

export interface JudgeCallResult {
  /** Why the call cannot run as it stands (its full arguments fail the tool's schema, or a blob is gone). */
  invalid?: { kind: ToolErrorKind; message: string };
  verdict: PolicyVerdict;
  allowRule?: PolicyRule;
}

/** Verdict messages quote commands; a long one is cut so the answer stays small in history. */
const MAX_MESSAGE_CHARS = 1000;

/**
 * The workflow's checks of one call (schema, policy, `proceed_always` rule) run on its full
 * arguments. The workflow holds long strings as markers whose preview is all it sees; a decision on
 * the preview would judge a different call from the one that runs. Pure but for reading the store,
 * so it runs as a local activity and only its small verdict enters history.
 */
export async function judgeCall(store: TranscriptStore, input: JudgeCallInput): Promise<JudgeCallResult> {
  let args: Record<string, unknown>;
  try {
    args = await resolveBlobMarkers(input.args, store);
  } catch (err) {
    if (!(err instanceof BlobMissingError)) throw err;
    const message =
      `A long argument of this call (stored as ${err.ref}) is no longer in the transcript store, so ` +
      `the call was not run.`;
    return refused('invalid_tool_params', message);
  }
  const parsed = parseToolArgs(input.name, args);
  if (!parsed.ok) return refused(parsed.error.kind, parsed.error.message);
  if (input.outputSchema) {
    const check = checkCompleteTask(args, input.outputSchema);
    if (!check.ok) return refused('invalid_tool_params', check.message);
  }
  const call = { name: input.name, args };
  const verdict = evaluatePolicy({ rules: input.rules }, call, input.context);
  const allowRule = input.allowRuleFor ? sessionAllowRule(call, input.allowRuleFor, input.narrowing) : undefined;
  const message = verdict.message && clip(verdict.message);
  return {
    verdict: message ? { ...verdict, message } : verdict,
    ...(allowRule ? { allowRule: clipRule(allowRule) } : {}),
  };
}

function refused(kind: ToolErrorKind, message: string): JudgeCallResult {
  return { invalid: { kind, message: clip(message) }, verdict: { decision: 'deny', message: clip(message) } };
}

function clip(text: string): string {
  return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS)}… (${text.length} characters)` : text;
}

/** A rule's `source` quotes what it allows; only its matching fields must stay whole. */
function clipRule(rule: PolicyRule): PolicyRule {
  return rule.source ? { ...rule, source: clip(rule.source) } : rule;
}
