import { Context } from '@temporalio/activity';
import type { ToolOutcome } from '../core/types';
import { resolveBlobMarkers } from '../store/blobs';
import type { TranscriptStore } from '../store/types';
import { parseToolArgs } from '../tools';
import { truncateOutput } from '../tools/truncate';
import { ToolError, isReadOnly, type ToolResult } from '../tools/types';
import { createToolDeps } from './tool-deps';

export interface RunToolInput {
  callId: string;
  name: string;
  args: Record<string, unknown>;
  workspace: string;
  shellTimeoutMs: number;
}

export interface ToolActivityDeps {
  store: TranscriptStore;
  /** Heartbeat period while a tool runs; the workflow sets the heartbeat timeout. */
  heartbeatIntervalMs?: number;
}

const PREVIEW_CHARS = 300;

/**
 * Executes one tool call (phase 3 of parse → decide → execute). Tool failures become results the
 * model sees; only infrastructure failures throw. A mutating call on a retry attempt is never
 * re-run blindly (invariant 7): its first attempt may have had effects, so the model is told.
 */
export async function runTool(deps: ToolActivityDeps, input: RunToolInput): Promise<ToolOutcome> {
  const ctx = Context.current();
  const result = await executeTool(deps, input, ctx);
  const response = result.ok ? { output: truncateOutput(result.output) } : { error: result.error.message };
  const text = result.ok ? result.output : result.error.message;
  return {
    callId: input.callId,
    name: input.name,
    ok: result.ok,
    responseRef: await deps.store.putBlob(JSON.stringify(response)),
    preview: text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text,
    errorKind: result.ok ? undefined : result.error.kind,
  };
}

async function executeTool(deps: ToolActivityDeps, input: RunToolInput, ctx: Context): Promise<ToolResult> {
  const args = await resolveBlobMarkers(input.args, deps.store);
  const parsed = parseToolArgs(input.name, args);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  if (ctx.info.attempt > 1 && input.name === 'run_shell_command') {
    return {
      ok: false,
      error: {
        kind: 'outcome_unknown',
        message: 'Outcome unknown: the previous attempt was interrupted (the worker stopped while the command ran). ' +
          'It was not run again. Check its effects before deciding whether to run it again.',
      },
    };
  }
  const timer = setInterval(() => ctx.heartbeat(), deps.heartbeatIntervalMs ?? 1000);
  try {
    const toolDeps = await createToolDeps({ root: input.workspace, signal: ctx.cancellationSignal, shellTimeoutMs: input.shellTimeoutMs, readBlob: (ref) => deps.store.getBlob(ref) });
    return await parsed.tool.execute(parsed.args, toolDeps);
  } catch (err) {
    if (err instanceof ToolError) return { ok: false, error: { kind: err.kind, message: err.message } };
    if (ctx.cancellationSignal.aborted) return { ok: false, error: { kind: 'cancelled', message: 'The tool call was cancelled.' } };
    if (isReadOnly(parsed.tool)) throw err;
    return { ok: false, error: { kind: 'execution_failed', message: `${input.name} failed: ${(err as Error).message}` } };
  } finally {
    clearInterval(timer);
  }
}
