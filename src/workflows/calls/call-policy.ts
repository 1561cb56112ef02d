import { isCancellation, log, proxyLocalActivities } from '@temporalio/workflow';
import type { JsonSchema } from '../../core/agents/json-schema-check';
import type { Activities } from '../../activities';
import type { JudgeCallInput, JudgeCallResult } from '../../activities/judge-call';
import { hasBlobMarkers, previewMarkers } from '../../core/blob-marker';
import {
  defaultPolicy,
  EDIT_TOOLS,
  evaluatePolicy,
  READ_ONLY_TOOLS,
  sessionAllowRule,
  SHELL_TOOL,
} from '../../core/policy/index';
import type { ShellNarrowing } from '../../core/policy/index';
import type { ApprovalMode } from '../../core/types';
import { mcpTrustRules } from '../../core/mcp';
import { mcpToolOf } from './mcp-calls';
import { PLANS_DIR } from '../../tools/plan-mode';
import type { ToolErrorKind } from '../../tools/types';
import type { PromptState } from '../state/prompt-state';
import { setMode } from '../run/records';
import type { CallRecord } from '../api';
import { isPatched, PATCHES } from '../patches';
import { addSessionRule } from '../run/progress';

export type Refusal = { kind: ToolErrorKind; message: string };

/**
 * Schema, policy and (with `allowRuleFor`) the `proceed_always` rule for a call, as they apply to
 * the arguments that will run: the defaults, the policy files and this prompt's session rules,
 * first match wins (core/policy).
 */
export async function judge(
  state: PromptState,
  record: CallRecord,
  allowRuleFor?: ApprovalMode,
  outputSchema?: JsonSchema,
): Promise<JudgeCallResult> {
  const rules = [
    ...defaultRules(record.name),
    ...mcpTrustRules(state.input.mcpServers),
    ...state.settings.policyRules,
    ...state.progress.sessionRules,
  ];
  const context = { mode: state.progress.mode, plansDir: PLANS_DIR, workspaceRoot: state.input.workspace };
  const narrowing = allowRuleFor ? shellNarrowing(record.name) : undefined;
  if (hasBlobMarkers(record.args) && isPatched(PATCHES.fullArgs)) {
    return judgeFullArgs({
      name: record.name,
      args: record.args,
      rules,
      context,
      allowRuleFor,
      narrowing,
      outputSchema: record.name === 'complete_task' ? outputSchema : undefined,
    });
  }
  const call = { name: record.name, args: previewMarkers(record.args) as Record<string, unknown> };
  const allowRule = allowRuleFor ? sessionAllowRule(call, allowRuleFor, narrowing) : undefined;
  return { verdict: evaluatePolicy({ rules }, call, context), allowRule };
}

function defaultRules(toolName: string) {
  if (toolName !== 'read_tool_output' || isPatched(PATCHES.readToolOutputReadOnly)) return defaultPolicy(PLANS_DIR);
  return defaultPolicy(
    PLANS_DIR,
    READ_ONLY_TOOLS.filter((name) => name !== 'read_tool_output'),
  );
}

/** Why a judged call must not run: invalid full arguments, or a policy deny. */
export function refusalOf(judged: JudgeCallResult): Refusal | undefined {
  if (judged.invalid) return judged.invalid;
  if (judged.verdict.decision !== 'deny') return undefined;
  return { kind: 'policy_violation', message: judged.verdict.message ?? 'Tool execution denied by policy.' };
}

/** The policy asked again (after a BeforeTool hook rewrote the arguments): a deny refuses the call. */
export async function policyRefuses(
  state: PromptState,
  record: CallRecord,
  outputSchema?: JsonSchema,
): Promise<Refusal | undefined> {
  return refusalOf(await judge(state, record, undefined, outputSchema));
}

/**
 * An approval never overrides a deny (invariant 6): the policy is asked again with the final
 * arguments and the current mode, since `modify` or a mode switch may have changed either.
 * `proceed_always` first adds its session rule, and on an edit tool switches to auto_edit as
 * Gemini CLI does.
 */
export async function recheckAfterApproval(
  state: PromptState,
  record: CallRecord,
  outputSchema?: JsonSchema,
): Promise<Refusal | undefined> {
  const outcome = record.decision?.outcome;
  if (outcome === 'proceed_always' || outcome === 'proceed_always_tool' || outcome === 'proceed_always_server') {
    const { allowRule } = await judge(state, record, state.progress.mode, outputSchema);
    const server = outcome === 'proceed_always_server' ? mcpToolOf(state, record.name)?.server : undefined;
    // Gemini CLI's server scope: one rule for `mcp_<server>_*`; on any other call it is the call's own rule.
    const rule =
      allowRule && server
        ? { ...allowRule, toolName: `mcp_${server}_*`, source: `session: always allow MCP server ${server}` }
        : allowRule;
    if (rule) addSessionRule(state, rule);
    if (EDIT_TOOLS.includes(record.name) && state.progress.mode === 'default') setMode(state, 'auto_edit');
  }
  const refusal = refusalOf(await judge(state, record, undefined, outputSchema));
  if (!refusal || refusal.kind !== 'policy_violation') return refusal;
  return { ...refusal, message: `${refusal.message} An approval cannot override a policy deny.` };
}

/**
 * `proceed_always` on a shell command used to allow every command with the same name; it now
 * keeps the first argument too. Histories recorded before still replay with the old rule.
 */
function shellNarrowing(name: string): ShellNarrowing {
  return name !== SHELL_TOOL || isPatched(PATCHES.alwaysAllowsSubcommand) ? 'subcommand' : 'root';
}

/**
 * A local activity: it only reads the store, so a rerun is harmless, and its verdict is one marker
 * in history. If the store stays unreadable the call is refused, never judged on a preview.
 */
async function judgeFullArgs(input: JudgeCallInput): Promise<JudgeCallResult> {
  const act = proxyLocalActivities<Activities>({
    startToCloseTimeout: '30 seconds',
    retry: { initialInterval: '1 second', maximumInterval: '10 seconds', maximumAttempts: 8 },
  });
  try {
    return await act.judgeCall(input);
  } catch (err) {
    if (isCancellation(err)) throw err;
    log.warn('could not judge a call on its full arguments', { name: input.name, error: String(err) });
    const message =
      'The full arguments of this call could not be read from the transcript store, so the call was not run.';
    return { invalid: { kind: 'execution_failed', message }, verdict: { decision: 'deny', message } };
  }
}
