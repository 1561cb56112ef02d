import { aggregateOutputs } from '../../core/hooks/aggregate';
import { readHookOutput } from '../../core/hooks/output';
import {
  DEFAULT_HOOK_TIMEOUT_MS,
  type HookCommand,
  type HookDecision,
  type HookEventName,
  type HookOutput,
  type HookRun,
} from '../../core/hooks/types';
import { externalizeLargeStrings } from '../../store/blobs';
import type { TranscriptStore } from '../../store/types';
import { buildHookInput, hookEnvironment, type RunHooksInput } from './hook-input';
import { rewriteModelTurn } from './model-hooks';
import { rewriteToolResponse } from './tool-response';
import { runHookProcess } from './run-command';
import type { ProcessRunner } from '../spawner/runner';
import { withHeartbeat } from '../heartbeat';

export type { HookContext, RunHooksInput } from './hook-input';

export interface HookDeps {
  store: TranscriptStore;
  /** The worker's environment minus secrets; the hook's own `env` and Gemini CLI's variables are added. */
  env: NodeJS.ProcessEnv;
  heartbeatIntervalMs?: number;
  killGraceMs?: number;
  /** Starts the hook processes (default: the process's shared spawner). */
  runner?: ProcessRunner;
}

/**
 * One hook event: every matching command hook runs (in parallel, or one at a time when the plan is
 * sequential), and their outputs are aggregated into one decision. Hook failures are warnings in
 * the result, never thrown: this activity fails only when the store does, so that Temporal
 * retries it only if no decision was made.
 */
export async function runHooks(deps: HookDeps, input: RunHooksInput): Promise<HookDecision> {
  return withHeartbeat(deps.heartbeatIntervalMs ?? 5000, async (ctx) => {
    let payload = await buildHookInput(deps.store, input);
    const runs: HookRun[] = [];
    if (input.plan.sequential) {
      for (const hook of input.plan.hooks) {
        const run = await runOne(deps, input, hook, payload, ctx.cancellationSignal);
        runs.push(run);
        payload = feedForward(input.event, payload, run.output);
      }
    } else {
      runs.push(
        ...(await Promise.all(
          input.plan.hooks.map((hook) => runOne(deps, input, hook, payload, ctx.cancellationSignal)),
        )),
      );
    }
    return await decide(deps, input, runs);
  });
}

async function runOne(
  deps: HookDeps,
  input: RunHooksInput,
  hook: HookCommand,
  payload: Record<string, unknown>,
  signal: AbortSignal,
): Promise<HookRun> {
  const name = hook.name ?? hook.command;
  const timeoutMs = hook.timeout ?? DEFAULT_HOOK_TIMEOUT_MS;
  const env = { ...deps.env, ...hookEnvironment(input.context), ...(hook.env ?? {}) };
  const result = await runHookProcess({
    command: hook.command,
    stdin: JSON.stringify(payload),
    cwd: input.context.workspace,
    env,
    timeoutMs,
    killGraceMs: deps.killGraceMs,
    signal,
    runner: deps.runner,
  });
  const base = { name, exitCode: result.exitCode, timedOut: result.timedOut };
  if (result.error) return { ...base, success: false, warning: `hook ${name} could not start: ${result.error}` };
  if (result.timedOut)
    return { ...base, success: false, warning: `hook ${name} timed out after ${timeoutMs} ms and was stopped` };
  if (result.exitCode === null)
    return { ...base, success: false, warning: `hook ${name} was killed by ${result.signal}` };
  const read = readHookOutput(result.exitCode, result.stdout, result.stderr);
  const warning = read.warning ? `hook ${name} ${read.warning}` : undefined;
  return { ...base, success: result.exitCode === 0 && !warning, output: read.output, warning };
}

/** Gemini CLI's sequential hand-over: later hooks see what earlier ones changed. */
function feedForward(
  event: HookEventName,
  payload: Record<string, unknown>,
  output: HookOutput | undefined,
): Record<string, unknown> {
  const specific = output?.hookSpecificOutput;
  if (!specific) return payload;
  if (event === 'BeforeAgent' && specific.additionalContext)
    return { ...payload, prompt: `${String(payload.prompt ?? '')}\n\n${specific.additionalContext}` };
  if (event === 'BeforeTool' && specific.tool_input)
    return { ...payload, tool_input: { ...(payload.tool_input as object), ...specific.tool_input } };
  if (event === 'BeforeModel' && specific.llm_request)
    return { ...payload, llm_request: { ...(payload.llm_request as object), ...specific.llm_request } };
  return payload;
}

/** Aggregates, and moves what may be large out of the result: model documents to blobs, long strings to markers. */
async function decide(deps: HookDeps, input: RunHooksInput, runs: HookRun[]): Promise<HookDecision> {
  const outputs = runs.flatMap((r) => (r.output ? [r.output] : []));
  const { llmRequest, llmResponse, ...aggregated } = aggregateOutputs(input.event, outputs);
  const decision: HookDecision = {
    ...aggregated,
    ran: runs.length,
    warnings: runs.flatMap((r) => (r.warning ? [r.warning] : [])),
  };
  if (input.event === 'BeforeModel' && llmRequest)
    decision.requestRef = await deps.store.putBlob(JSON.stringify(llmRequest));
  if (input.event === 'BeforeModel' && llmResponse)
    decision.responseRef = await deps.store.putBlob(JSON.stringify(llmResponse));
  if (
    input.event === 'AfterModel' &&
    input.llm?.responseAt !== undefined &&
    (llmResponse || decision.stop || decision.blocked)
  ) {
    decision.modelResponse = await rewriteModelTurn(
      deps.store,
      input.llm.transcriptId,
      input.llm.responseAt,
      llmResponse,
      decision.reason,
    );
  }
  if (
    input.event === 'AfterTool' &&
    input.toolResponse &&
    (decision.stop || decision.blocked || decision.additionalContext)
  ) {
    decision.toolResponseRef = await rewriteToolResponse(deps.store, input.toolResponse, decision);
  }
  if (decision.toolInput) decision.toolInput = await externalizeLargeStrings(decision.toolInput, deps.store);
  if (decision.tailToolCall) decision.tailToolCall = await externalizeLargeStrings(decision.tailToolCall, deps.store);
  return decision;
}
