import { log, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import type { RunHooksInput } from '../../activities/hooks/run-hooks';
import { planHooks, type HookPlan } from '../../core/hooks/plan';
import {
  DEFAULT_HOOK_TIMEOUT_MS,
  HOOK_KILL_GRACE_MS,
  type HookDecision,
  type HookEventName,
  type HooksConfig,
} from '../../core/hooks/types';
import type { PromptState } from '../state/prompt-state';
import { emit } from '../run/records';
import { onHost } from '../state/host-queue';
import type { HostFields } from '../../core/host-routing';

/** What a hook event needs besides its plan: the event's fields and references. */
export type HookRequest = Omit<RunHooksInput, 'event' | 'plan' | 'context'>;

/**
 * One hook event as one activity, or nothing at all when no hook matches (histories of prompts
 * without hooks stay as they were). The decision is the activity's result, recorded in history, so
 * replay and a new worker read it and never run the hook again. Only a worker that dies while a
 * hook runs leaves no result: the activity is retried and that hook runs again (at least once,
 * never more once it has answered). An activity that still fails counts as a failed hook: a
 * warning, and the agent goes on (Gemini CLI ignores failed hooks).
 */
export async function runHookEvent(
  config: HooksConfig | undefined,
  event: HookEventName,
  target: string | undefined,
  request: HookRequest & { workspace: string; heartbeatTimeoutMs?: number; host?: HostFields },
): Promise<{ decision?: HookDecision; failure?: string }> {
  const plan = planHooks(config, event, target);
  if (!plan) return {};
  const { workspace, heartbeatTimeoutMs, host, ...rest } = request;
  const info = workflowInfo();
  const context = {
    sessionId: info.parent?.workflowId ?? info.workflowId,
    promptId: info.workflowId,
    workspace,
    transcriptId: rest.llm?.transcriptId,
  };
  const act = proxyActivities<Activities>({
    ...onHost(host ?? {}),
    startToCloseTimeout: budgetMs(plan),
    heartbeatTimeout: heartbeatTimeoutMs ?? 30_000,
    retry: { initialInterval: '1 second', maximumAttempts: 3 },
  });
  try {
    return { decision: await act.runHooks({ event, plan, context, ...rest }) };
  } catch (err) {
    log.warn('hook activity failed', { event, err: String(err) });
    return { failure: `${event} hooks failed and were ignored: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/** Runs a prompt's hook event and records what happened as events. */
export async function firePromptHook(
  state: PromptState,
  event: HookEventName,
  target: string | undefined,
  request: HookRequest,
): Promise<HookDecision | undefined> {
  const { decision, failure } = await runHookEvent(state.input.hooks, event, target, {
    ...request,
    workspace: state.input.workspace,
    heartbeatTimeoutMs: state.input.toolHeartbeatTimeoutMs,
    host: state.input,
  });
  if (failure) emit(state, { type: 'warning', message: failure });
  if (!decision) return undefined;
  for (const warning of decision.warnings) emit(state, { type: 'warning', message: warning });
  emit(state, {
    type: 'hook',
    event,
    hooks: decision.ran,
    decision: decision.decision,
    stop: decision.stop,
    reason: decision.reason,
    systemMessage: decision.systemMessage,
  });
  return decision;
}

/**
 * SessionStart (source `startup`, or `clear`) or SessionEnd (reason `exit`, or `clear`) of a
 * session workflow, which has no event log: failures and warnings go to the workflow log. Returns
 * SessionStart's context and message, which the next prompt takes.
 */
export async function fireSessionHook(
  input: { hooks?: HooksConfig; workspace: string; toolHeartbeatTimeoutMs?: number } & HostFields,
  event: 'SessionStart' | 'SessionEnd',
  why?: 'clear',
): Promise<{ context?: string; systemMessage?: string }> {
  const target = why ?? (event === 'SessionStart' ? 'startup' : 'exit');
  const fields = event === 'SessionStart' ? { source: target } : { reason: target };
  const { decision, failure } = await runHookEvent(input.hooks, event, target, {
    fields,
    workspace: input.workspace,
    heartbeatTimeoutMs: input.toolHeartbeatTimeoutMs,
    host: input,
  });
  for (const warning of [...(failure ? [failure] : []), ...(decision?.warnings ?? [])]) log.warn(warning);
  return { context: decision?.additionalContext, systemMessage: decision?.systemMessage };
}

/** Time for every hook to time out and be killed (one after another when sequential), plus a margin. */
function budgetMs(plan: HookPlan): number {
  const each = plan.hooks.map((h) => (h.timeout ?? DEFAULT_HOOK_TIMEOUT_MS) + HOOK_KILL_GRACE_MS);
  return (plan.sequential ? each.reduce((a, b) => a + b, 0) : Math.max(...each)) + 30_000;
}

/** Whether any hook is configured for `event` (before building an expensive request). */
export function hasHooks(state: PromptState, event: HookEventName, target?: string): boolean {
  return planHooks(state.input.hooks, event, target) !== undefined;
}
