import { ApplicationFailure } from '@temporalio/common';
import type { Content, ContentUnion, GenerateContentParameters, Part, PartUnion } from '@google/genai';
import { assembleTurn, toUsage, type AssembledTurn, type StreamChunk } from '../core/assemble-turn';
import {
  invalidStreamFailureMessage,
  MID_STREAM_RETRY,
  RETRY_NUDGES,
  validateTurn,
  type InvalidStream,
} from '../core/stream-validation';
import { MODEL_ERROR_TYPES } from '../core/failures';
import { classifyModelError } from '../model/errors';
import type { StreamSeam } from '../model/seam';
import { streamContentCheck } from '../core/loop/stream-check';
import type { ContentTracking, LoopDetection } from '../core/loop/types';
import type { TokenUsage } from '../core/types';

export interface ModelStreamDeps {
  models: StreamSeam;
  /** Waits between attempts; pass `Context.current().sleep` so a cancelled activity stops waiting. */
  sleep?(ms: number): Promise<void>;
  /** Called for every chunk and before every wait, so a long turn keeps its heartbeat. */
  heartbeat?(): void;
  /** Every chunk as it arrives, with the number of the try (0-based) it belongs to: the live preview. */
  onChunk?(attempt: number, chunk: StreamChunk): void;
  /**
   * Loop detection's content tracking before this request: the text is checked chunk by chunk and the
   * stream is cut at the first content loop. Absent when detection is off: nothing is cut.
   */
  contentLoop?: ContentTracking;
}

/**
 * A turn whose stream was cut because its text chants: `loop` says what repeats. `droppedTries` holds the usage
 * reports of this call's earlier tries whose answers were dropped (invalid, or broken after the provider reported
 * usage): the provider billed them, so the prompt counts them.
 */
export type CutTurn = AssembledTurn & { loop?: LoopDetection; droppedTries?: TokenUsage[] };

/** One attempt's result: a turn to validate, or a retryable failure met while reading the stream (and its usage). */
type Attempt = { turn: CutTurn } | { failure: Error; usage?: TokenUsage };

/**
 * Streams one model turn with Gemini CLI's mid-stream retry: up to 4 attempts, 1 s / 2 s / 4 s
 * apart, when the stream turns out invalid (`validateTurn`) or breaks with a retryable error while
 * being read. The retry after an empty or thoughts-only answer carries a nudge in the system
 * instruction. Only the successful attempt's turn is returned: partial output of failed attempts is
 * dropped, so the transcript never holds it twice.
 *
 * Not retried here: errors of the request itself (before a stream exists), which are thrown
 * classified so that Temporal retries the activity (invariant 3); non-retryable errors; anything
 * after cancellation. A turn still invalid after 4 attempts throws a non-retryable
 * `ModelCall.InvalidStream` failure (details `[{ invalidStreamType }]`); a stream that still breaks
 * throws its classified error for Temporal's retry policy.
 */
export async function streamValidTurn(
  deps: ModelStreamDeps,
  request: GenerateContentParameters,
  turnNumber: number,
  requestWasFunctionResponse: boolean,
): Promise<CutTurn> {
  const sleep = deps.sleep ?? ((ms: number) => abortableSleep(ms, request.config?.abortSignal));
  let last: { invalid: InvalidStream } | { failure: Error } | undefined;
  const dropped: TokenUsage[] = [];
  const withDropped = (turn: CutTurn): CutTurn => (dropped.length > 0 ? { ...turn, droppedTries: dropped } : turn);
  for (let attempt = 0; attempt < MID_STREAM_RETRY.maxAttempts; attempt++) {
    if (attempt > 0) {
      deps.heartbeat?.();
      await sleep(MID_STREAM_RETRY.initialDelayMs * 2 ** (attempt - 1));
    }
    const nudge = last && 'invalid' in last ? RETRY_NUDGES[last.invalid.type] : undefined;
    const result = await streamOnce(deps, withNudge(request, nudge), turnNumber, attempt);
    if ('failure' in result) {
      if (result.usage) dropped.push(result.usage);
      last = result;
      continue;
    }
    // A cut turn is abandoned by the workflow whatever it holds, so it is not validated or retried.
    if (result.turn.loop) return withDropped(result.turn);
    const invalid = validateTurn(result.turn, { requestWasFunctionResponse });
    if (!invalid) return withDropped(result.turn);
    if (result.turn.usage.total > 0) dropped.push(result.turn.usage);
    last = { invalid };
  }
  if (last && 'failure' in last) throw last.failure;
  const invalid = (last as { invalid: InvalidStream }).invalid;
  throw ApplicationFailure.create({
    type: MODEL_ERROR_TYPES.invalidStream,
    message: invalidStreamFailureMessage(invalid, MID_STREAM_RETRY.maxAttempts),
    nonRetryable: true,
    details: [{ invalidStreamType: invalid.type }],
  });
}

async function streamOnce(
  deps: ModelStreamDeps,
  request: GenerateContentParameters,
  turnNumber: number,
  attempt: number,
): Promise<Attempt> {
  const signal = request.config?.abortSignal;
  const cut = deps.contentLoop ? cutter(signal) : undefined;
  let stream: AsyncGenerator<unknown>;
  try {
    const sent = cut ? { ...request, config: { ...request.config, abortSignal: cut.controller.signal } } : request;
    stream = await deps.models.generateContentStream(sent);
  } catch (err) {
    cut?.release();
    throw cancellationOr(signal, classifyModelError(err, request.model));
  }
  const chunks: StreamChunk[] = [];
  // Each attempt starts from the tracking the request came with: a failed attempt's text is dropped.
  const check = deps.contentLoop ? streamContentCheck(deps.contentLoop) : undefined;
  let loop: LoopDetection | undefined;
  try {
    for await (const chunk of stream) {
      chunks.push(chunk as StreamChunk);
      deps.onChunk?.(attempt, chunk as StreamChunk);
      deps.heartbeat?.();
      loop = check?.(chunk as StreamChunk);
      if (loop) break;
    }
  } catch (err) {
    const failure = cancellationOr(signal, classifyModelError(err, request.model));
    // The provider billed what it reported before the break: its last report counts, as in a whole answer.
    const reported = chunks.filter((c) => c.usageMetadata).at(-1)?.usageMetadata;
    const usage = reported ? toUsage(reported) : undefined;
    if (failure instanceof ApplicationFailure && !failure.nonRetryable) return { failure, ...(usage ? { usage } : {}) };
    throw failure;
  } finally {
    cut?.release();
  }
  if (loop) {
    // Closes the connection, so the model stops generating what nobody will read.
    cut?.controller.abort(new Error('content loop: the stream was cut'));
    return { turn: { ...assembleTurn(chunks, turnNumber), loop } };
  }
  if (signal?.aborted) throw cancellationOr(signal, new Error('the model call was cancelled'));
  return { turn: assembleTurn(chunks, turnNumber) };
}

/** An abort signal of the attempt's own, so a loop can close the connection; it follows the activity's. */
function cutter(outer: AbortSignal | undefined) {
  const controller = new AbortController();
  const follow = () => controller.abort(outer?.reason);
  if (outer?.aborted) follow();
  outer?.addEventListener('abort', follow, { once: true });
  return { controller, release: () => outer?.removeEventListener('abort', follow) };
}

/** Once the activity is cancelled, its reason (Temporal's `CancelledFailure`) wins over any other error. */
function cancellationOr(signal: AbortSignal | undefined, err: Error): Error {
  if (!signal?.aborted) return err;
  return signal.reason instanceof Error ? signal.reason : err;
}

/** The request with `nudge` appended to its system instruction, whatever form that instruction has. */
export function withNudge(request: GenerateContentParameters, nudge: string | undefined): GenerateContentParameters {
  if (!nudge) return request;
  return {
    ...request,
    config: { ...request.config, systemInstruction: appendText(request.config?.systemInstruction, nudge) },
  };
}

function appendText(instruction: ContentUnion | undefined, text: string): ContentUnion {
  if (instruction === undefined) return text;
  if (typeof instruction === 'string') return `${instruction}\n\n${text}`;
  if (Array.isArray(instruction)) return [...(instruction as PartUnion[]), { text }];
  if ('parts' in instruction || 'role' in instruction) {
    const content = instruction as Content;
    return { ...content, parts: [...(content.parts ?? []), { text }] };
  }
  return [instruction as Part, { text }];
}

function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
