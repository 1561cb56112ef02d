import { Context } from '@temporalio/activity';
import { previewOf } from './tool-preview';
import type { ToolOutcome } from '../core/types';
import { MEDIA_KEY, type StoredMedia } from '../core/media';
import { getBlobIfStored, resolveBlobMarkers } from '../store/blobs';
import { BlobMissingError, type TranscriptStore } from '../store/types';
import { findTool, parseToolArgs } from '../tools';
import type { ToolJournal } from '../store/journal';
import { fingerprintTarget, resumeInterrupted } from './interrupted';
import { truncateOutput } from '../tools/truncate';
import {
  ToolError,
  isReadOnly,
  type ActivityTool,
  type ToolDeps,
  type ToolErrorKind,
  type ToolResult,
} from '../tools/types';
import { createToolDeps } from './tool-deps';
import { withHeartbeat } from './heartbeat';
import { createWebAccess } from './web/access';
import type { JsonModelSeam } from '../model/seam';
import type { WebSettings } from '../core/web';
import type { CommandRecords } from './command-records';
import { createExec, recordedResult } from './exec';

export interface RunToolInput {
  callId: string;
  name: string;
  args: Record<string, unknown>;
  workspace: string;
  shellTimeoutMs: number;
  /** For edits: fingerprints of files as the model last saw them, by workspace-relative path. */
  knownFiles?: Record<string, string>;
  /** The `web_fetch` settings of the prompt (absent: private addresses refused). */
  web?: WebSettings;
}

export interface ToolActivityDeps {
  store: TranscriptStore;
  /** The side-effect journal; without it, a retry attempt counts as an interruption. */
  journal?: ToolJournal;
  /** Heartbeat period while a tool runs; the workflow sets the heartbeat timeout. */
  heartbeatIntervalMs?: number;
  /** Time `grep_search` may spend matching one file (the tool's default: 4 s). */
  grepTimeoutMs?: number;
  /** Runs shell commands (default: `createExec()`). */
  exec?: ToolDeps['exec'];
  /** The worker's background commands (default: the registry of `home`). */
  background?: ToolDeps['background'];
  /** Outcomes of shell commands kept by the spawner, for a worker that takes a call over. */
  commandRecords?: CommandRecords;
  /** durable-agent's home, where `save_memory` writes the user-level `GEMINI.md`. */
  home?: string;
  /** The model client of `web_fetch` and `google_web_search` (none: they report they are unavailable). */
  models?: JsonModelSeam;
}

/**
 * Executes one tool call (phase 3 of parse → decide → execute). Tool failures become results the
 * model sees; only infrastructure failures throw. A mutating call is journaled under its
 * idempotency key (workflow id + call id): a finished call returns its recorded outcome, and one
 * whose earlier attempt was interrupted is never re-run blindly (invariant 7).
 */
export async function runTool(deps: ToolActivityDeps, input: RunToolInput): Promise<ToolOutcome> {
  const ctx = Context.current();
  const tool = findTool(input.name);
  const mutating = !!tool && !isReadOnly(tool) && tool.runsIn !== 'workflow';
  const key = `${ctx.info.workflowExecution?.workflowId ?? ctx.info.workflowType}/${input.callId}`;
  const entry = mutating ? await deps.journal?.get(key) : undefined;
  if (entry?.state === 'completed') return entry.outcome;
  // With a journal, no entry proves that no earlier attempt got as far as running the tool.
  const interrupted = mutating && (entry?.state === 'started' || (!deps.journal && ctx.info.attempt > 1));
  const before =
    entry?.state === 'started'
      ? entry.before
      : mutating
        ? await fingerprintTarget(input.name, input.args, input.workspace)
        : undefined;
  if (mutating) await deps.journal?.put(key, { state: 'started', attempt: ctx.info.attempt, before });
  const recorded = input.name === 'run_shell_command' && mutating ? recordedDeps(deps, key) : deps;
  const outcome = await toOutcome(
    deps,
    input,
    await executeTool(recorded, input, ctx, interrupted ? { before, key } : undefined),
  );
  if (mutating) await deps.journal?.put(key, { state: 'completed', outcome });
  if (recorded !== deps) deps.commandRecords?.remove(key);
  return outcome;
}

async function toOutcome(deps: ToolActivityDeps, input: RunToolInput, result: ToolResult): Promise<ToolOutcome> {
  const response: Record<string, unknown> = result.ok
    ? { output: truncateOutput(result.output) }
    : { error: result.error.message };
  // The bytes go to the store on their own; the response, and so the transcript, keeps their reference.
  if (result.ok && result.media) {
    const { mimeType, base64, path } = result.media;
    response[MEDIA_KEY] = { mimeType, ref: await deps.store.putBlob(base64), path } satisfies StoredMedia;
  }
  const text = result.ok ? result.output : result.error.message;
  return {
    callId: input.callId,
    name: input.name,
    ok: result.ok,
    responseRef: await deps.store.putBlob(JSON.stringify(response)),
    preview: previewOf(text),
    errorKind: result.ok ? undefined : result.error.kind,
    ...(result.ok && result.known ? { known: result.known } : {}),
  };
}

async function executeTool(
  deps: ToolActivityDeps,
  input: RunToolInput,
  ctx: Context,
  interrupted?: { before?: string; key: string },
): Promise<ToolResult> {
  let args: Record<string, unknown>;
  try {
    args = await resolveBlobMarkers(input.args, deps.store);
  } catch (err) {
    if (err instanceof BlobMissingError) return missingBlobResult(err);
    throw err;
  }
  const parsed = parseToolArgs(input.name, args);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  const tool = parsed.tool;
  // The workflow routes its own tools away from this activity; a call that still arrives is refused.
  if (tool.runsIn === 'workflow') {
    return {
      ok: false,
      error: { kind: 'execution_failed', message: `${input.name} is carried out by the workflow itself.` },
    };
  }
  const ran = interrupted && (await ranBefore(deps, interrupted.key, ctx));
  if (ran) return runParsed({ ...deps, exec: ran }, input, ctx, tool, parsed.args);
  const resumed = interrupted
    ? await resumeInterrupted(input.name, parsed.args as Record<string, unknown>, input.workspace, interrupted.before)
    : undefined;
  if (resumed) return resumed;
  return withHeartbeat(deps.heartbeatIntervalMs ?? 1000, () => runParsed(deps, input, ctx, tool, parsed.args));
}

/** Shell commands keep their outcome in a record under the call's key while they run. */
function recordedDeps(deps: ToolActivityDeps, key: string): ToolActivityDeps {
  if (!deps.commandRecords) return deps;
  const { commandRecords } = deps;
  const exec = deps.exec ?? createExec();
  return { ...deps, exec: (options) => exec({ ...options, record: commandRecords.pathFor(key) }) };
}

/**
 * For a shell command an earlier worker started: an `exec` that answers with what it ended with
 * (waiting while it still runs), or undefined when that is unknowable.
 */
async function ranBefore(deps: ToolActivityDeps, key: string, ctx: Context): Promise<ToolDeps['exec'] | undefined> {
  if (!deps.commandRecords) return undefined;
  const { commandRecords } = deps;
  const found = await withHeartbeat(deps.heartbeatIntervalMs ?? 1000, () =>
    commandRecords.outcome(key, ctx.cancellationSignal),
  );
  return found && (async (options) => recordedResult(found, options.maxOutputChars));
}

/** Runs a call whose arguments passed its schema: a tool's own failure is an answer for the model. */
async function runParsed(
  deps: ToolActivityDeps,
  input: RunToolInput,
  ctx: Context,
  tool: ActivityTool,
  args: unknown,
): Promise<ToolResult> {
  const failed = (kind: ToolErrorKind, message: string): ToolResult => ({ ok: false, error: { kind, message } });
  try {
    const toolDeps = await createToolDeps({
      root: input.workspace,
      signal: ctx.cancellationSignal,
      shellTimeoutMs: input.shellTimeoutMs,
      grepTimeoutMs: deps.grepTimeoutMs,
      readBlob: (ref) => getBlobIfStored(deps.store, ref),
      exec: deps.exec,
      background: deps.background,
      knownFiles: input.knownFiles,
      home: deps.home,
      web: deps.models && createWebAccess(deps.models, ctx.cancellationSignal, !!input.web?.allowPrivateAddresses),
    });
    return await tool.execute(args, toolDeps);
  } catch (err) {
    if (err instanceof ToolError) return failed(err.kind, err.message);
    if (ctx.cancellationSignal.aborted) return failed('cancelled', 'The tool call was cancelled.');
    if (isReadOnly(tool)) throw err;
    return failed('execution_failed', `${input.name} failed: ${(err as Error).message}`);
  }
}

/** A marker whose text the store does not hold: an error the model can act on, with no store path in it. */
export function missingBlobResult(err: BlobMissingError): ToolResult {
  const message =
    `A long argument of this call (stored as ${err.ref}) is no longer in the transcript store, so ` +
    `the call was not run. Send it again.`;
  return { ok: false, error: { kind: 'invalid_tool_params', message } };
}
