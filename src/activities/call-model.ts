import { Context } from '@temporalio/activity';
import { chatConfig } from '../core/models';
import { withMcpDeclarations } from './mcp/declarations';
import type { Content, Part } from '@google/genai';
import type { ModelSeam } from '../model/seam';
import type { AssembledTurn } from '../core/assemble-turn';
import { streamValidTurn, type CutTurn } from './model-stream';
import { estimateRequestFits } from './compress';
import { maskOldToolOutputs } from '../core/masking';
import type { ContextFit } from '../core/compression';
import type { ContentTracking } from '../core/loop/types';
import type { FunctionCall, ModelTurn, NewPart } from '../core/types';
import { externalizeLargeStrings } from '../store/blobs';
import { inlineText } from './long-text';
import { defuseMarkerShaped, findMarkerShaped } from '../core/blob-marker';
import type { TranscriptStore } from '../store/types';
import { findTool, toFunctionDeclaration, type FunctionDeclaration } from '../tools';
import { systemInstruction } from './system-prompt';
import type { PromptShape } from '../core/prompt/shape';
import { withSignaturePlaceholders } from '../core/thought-signatures';
import type { LiveStream } from '../store/live-stream';
import { livePublisher } from './live-publisher';
import { applyModelHooks, syntheticTurn, type ModelHookInput } from './hooks/model-hooks';
import { resolveFrame, type FramedInput, type Sampling } from './request-frame';
import { withHeartbeat } from './heartbeat';
import { appendUserMessages } from './user-parts';
import { expandStoredMedia } from './media-parts';

/** `mode`, `unattended` and `systemMd` choose the system prompt's variant (see core/prompt). */
export interface CallModelInput extends PromptShape {
  transcriptId: string;
  /** Messages already in the transcript; the new user message is written at this index. */
  baseLength: number;
  /** The new user message: prompt text or function responses. Empty only for a bare retry. */
  append: NewPart[];
  model: string;
  workspace: string;
  toolNames: string[];
  /** Model request number within the prompt, used for call ids. */
  turn: number;
  /** `promptTokenCount` of the last response: the context-window overflow check starts from it. */
  lastPromptTokens?: number;
  /** Put before call ids this activity makes up (a sub-agent's, so they never equal its parent's). */
  callIdPrefix?: string;
  /** A sub-agent's own system prompt (the environment section is still added). */
  systemPrompt?: string;
  /** A sub-agent's sampling settings (temperature, topP); absent: the model's defaults. */
  sampling?: Sampling;
  /** Store reference of the project context, appended to the system instruction of every request. */
  memoryRef?: string;
  /**
   * Declarations the workflow builds itself (`invoke_agent` listing agents, `complete_task` from an output schema);
   * they replace registry ones of the same name.
   */
  extraDeclarations?: FunctionDeclaration[];
  /** The run's discovered MCP declarations, by store reference (offered when their names are in `toolNames`). */
  mcpDeclarationsRef?: string;
  /** What BeforeModel / BeforeToolSelection hooks decided for this request (see hooks/model-hooks). */
  hooks?: ModelHookInput;
  /**
   * Loop detection's content tracking before this request, set only while detection is on: the answer is
   * checked as it streams and cut at a content loop (the turn then carries `loop`).
   */
  contentLoop?: ContentTracking;
}

/** The activity's input: a request whose fixed part (see request-frame) is inline or a `frameRef`. */
export type FramedCallModelInput = FramedInput<CallModelInput>;

export interface ModelDeps {
  models: ModelSeam;
  store: TranscriptStore;
  /** Heartbeat period while a stream is open, so a dead worker's call is retried promptly. */
  heartbeatIntervalMs?: number;
  /** Where pieces of the answer are published as they stream (the live preview). */
  live?: LiveStream;
}

/**
 * One streamed model request (one activity). Reads the transcript by reference, appends the new user
 * message, streams the answer, records the model turn and returns it with large strings
 * externalised, so that history holds neither the conversation nor big arguments (invariant 4).
 */
export async function callModel(deps: ModelDeps, framed: FramedCallModelInput): Promise<ModelTurn> {
  const ctx = Context.current();
  const { input, stored: frameRef } = await resolveFrame<CallModelInput>(deps.store, framed, withMcpDeclarations);
  const fit = await estimateRequestFits(deps.store, {
    model: input.model,
    lastPromptTokens: input.lastPromptTokens ?? 0,
    append: input.append,
  });
  if (!fit.fits) return overflowTurn(input, fit);
  const contents = await deps.store.readMessages(input.transcriptId, input.baseLength);
  const length = await appendUserMessages(deps.store, input, contents, ctx.info.attempt);
  const request = await requestContents(contents, input.model, deps.store);
  const turn: CutTurn =
    (await syntheticTurn(deps.store, input.hooks, input.turn)) ??
    (await streamTurn(
      deps,
      input,
      request,
      input.append.some((p) => p.kind === 'functionResponse'),
    ));
  if (input.callIdPrefix) prefixMadeUpIds(turn, input.callIdPrefix);
  await deps.store.writeMessage(
    input.transcriptId,
    length,
    { role: 'model', parts: turn.historyParts as Part[] },
    ctx.info.attempt,
  );
  return {
    ...(await inlineText(turn.text, deps.store)),
    thoughts: turn.thoughts,
    functionCalls: await externalizeLargeStrings(turn.functionCalls.map(refuseForgedMarkers), deps.store),
    finishReason: turn.finishReason,
    usage: turn.usage,
    ...(turn.droppedTries ? { droppedTries: turn.droppedTries } : {}),
    model: input.model,
    transcriptLength: length + 1,
    ...(frameRef ? { frameRef } : {}),
    ...(turn.loop ? { loop: turn.loop } : {}),
  };
}

/**
 * The request, with Gemini CLI's mid-stream retry: an invalid stream or a stream cut after it began
 * is tried again inside this activity (at most 4 attempts), and only the successful attempt's text
 * is kept. Errors of the request itself are thrown, classified, for Temporal to retry.
 */
async function streamTurn(
  deps: ModelDeps,
  input: CallModelInput,
  contents: Content[],
  afterToolResults: boolean,
): Promise<CutTurn> {
  return withHeartbeat(deps.heartbeatIntervalMs ?? 5000, async (ctx, beat) => {
    const memory = input.memoryRef ? await deps.store.getBlob(input.memoryRef) : undefined;
    const request = await modelRequest(input, contents, ctx.cancellationSignal, memory);
    const workflowId = ctx.info.workflowExecution?.workflowId;
    const attemptId = `${ctx.info.activityId}.${ctx.info.attempt}`;
    const live = livePublisher(workflowId ? deps.live : undefined, workflowId ?? '', input.turn, attemptId, (m) =>
      ctx.log.warn(m),
    );
    const streamDeps = {
      models: deps.models,
      sleep: (ms: number) => ctx.sleep(ms),
      heartbeat: beat,
      onChunk: live.onChunk,
      contentLoop: input.contentLoop,
    };
    try {
      const hooked = await applyModelHooks(deps.store, input.hooks, request);
      return await streamValidTurn(streamDeps, hooked, input.turn, afterToolResults);
    } finally {
      await live.flush();
    }
  });
}

/**
 * What the request sends of the transcript: old bulky tool outputs masked, placeholder signatures on
 * unsigned calls of the active loop. Both in the request only; the transcript keeps what was said.
 */
async function requestContents(contents: Content[], model: string, store: TranscriptStore): Promise<Content[]> {
  const { contents: masked } = await maskOldToolOutputs(contents, (text) => store.putBlob(text));
  return expandStoredMedia(withSignaturePlaceholders(masked, model), store);
}

/** The SDK request: the conversation, our system prompt and the declarations of the turn's tools. */
async function modelRequest(input: CallModelInput, contents: Content[], abortSignal: AbortSignal, memory?: string) {
  const instruction = await systemInstruction(
    {
      workspace: input.workspace,
      platform: process.platform,
      date: new Date().toDateString(),
      toolNames: input.toolNames,
      preamble: input.systemPrompt,
      mode: input.mode,
      unattended: input.unattended,
      skills: input.skills,
      systemMd: input.systemPrompt === undefined ? input.systemMd : undefined,
    },
    memory,
  );
  return {
    model: input.model,
    contents,
    config: {
      systemInstruction: instruction,
      ...chatConfig(input.model),
      ...input.sampling,
      tools: [{ functionDeclarations: declarations(input.toolNames, input.extraDeclarations ?? []) }],
      abortSignal,
    },
  };
}

function declarations(toolNames: string[], extra: FunctionDeclaration[]): FunctionDeclaration[] {
  const own = new Set(extra.map((d) => d.name));
  const registry = toolNames.flatMap((name) => {
    const tool = own.has(name) ? undefined : findTool(name);
    return tool ? [toFunctionDeclaration(tool)] : [];
  });
  return [...registry, ...extra];
}

/** Ids `assembleTurn` made up (`call_<turn>_<n>`) get the prefix, in the calls and in the history parts. */
function prefixMadeUpIds(turn: AssembledTurn, prefix: string): void {
  const made = (id: string) => /^call_\d+_\d+$/.test(id);
  for (const call of turn.functionCalls) if (made(call.id)) call.id = `${prefix}${call.id}`;
  for (const part of turn.historyParts) {
    const fc = part.functionCall;
    if (fc?.id && made(fc.id)) fc.id = `${prefix}${fc.id}`;
  }
}

/**
 * Only this activity makes blob markers, from the model's long strings; a `$blob` object the model
 * wrote itself is forged. Its call is flagged for the workflow to answer as invalid arguments, and
 * the object becomes plain text, so that nothing downstream ever resolves it.
 */
function refuseForgedMarkers(call: FunctionCall): FunctionCall {
  const where = findMarkerShaped(call.args);
  if (where === undefined) return call;
  const field = where === '' ? 'the arguments' : `parameter "${where}"`;
  const invalid =
    `Invalid arguments for ${call.name}: ${field} is an object with a "$blob" key, which is reserved for the ` +
    `agent's own ` +
    'references to stored text. The call was not run. Send the value itself (a string), however long.';
  return { ...call, args: defuseMarkerShaped(call.args) as Record<string, unknown>, invalid };
}

/** Gemini CLI's step 6: a request that cannot fit is not sent; the workflow ends the prompt. */
function overflowTurn(input: CallModelInput, fit: ContextFit): ModelTurn {
  const empty = { input: 0, output: 0, cached: 0, thoughts: 0, total: 0 };
  const overflow = { estimatedRequestTokens: fit.estimatedRequestTokens, remainingTokens: fit.remainingTokens };
  return {
    text: '',
    thoughts: [],
    functionCalls: [],
    usage: empty,
    model: input.model,
    transcriptLength: input.baseLength,
    overflow,
  };
}
