import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { Content, GenerateContentParameters, GenerateContentResponse, GoogleGenAI } from '@google/genai';
import { z } from 'zod';
import { MODEL_ERROR_TYPES } from '../core/model-error-types';
import { curatedHistory, nextSpeakerFastPath } from '../core/next-speaker';
import type { TranscriptStore } from '../store/types';
import { classifyModelError } from './model-errors';

export { CONTINUE_TEXT } from '../core/next-speaker';

/** The one-method model seam (STYLE rule 4) for a non-streaming JSON answer. */
export type JsonModelSeam = Pick<GoogleGenAI['models'], 'generateContent'>;

export interface NextSpeakerDeps {
  models: JsonModelSeam;
  store: TranscriptStore;
}

export interface NextSpeakerInput {
  transcriptId: string;
  /** Transcript length after the model turn being judged. */
  length: number;
  model: string;
  /**
   * The retry policy's `maximumAttempts`. While attempts remain, a retryable API error or an answer
   * with no JSON fails the attempt so Temporal asks again (Gemini CLI's `generateJson` retries both);
   * on the last attempt it means "user". Default 1: never retried, never thrown.
   */
  maxAttempts?: number;
}

export interface NextSpeakerResult {
  next: 'user' | 'model';
  reasoning: string;
  /** Whether a model call was made (false: a fast path decided). */
  asked: boolean;
}

/** The answer's JSON Schema, sent as `responseJsonSchema`; the field names are Gemini CLI's protocol. */
export const NEXT_SPEAKER_JSON_SCHEMA = {
  type: 'object',
  properties: {
    reasoning: { type: 'string', description: 'A short justification of the choice, citing the rule that applies to the last reply.' },
    next_speaker: { type: 'string', enum: ['user', 'model'], description: 'Who speaks next, judged from the last reply alone.' },
  },
  required: ['reasoning', 'next_speaker'],
} as const;

const answerSchema = z.object({ reasoning: z.string().catch(''), next_speaker: z.enum(['user', 'model']) });

const CHECK_PROMPT = `Look only at the reply you just gave (your last message above) and decide who should speak next: the user, or you (the model). Apply the first rule that fits:
1. You speak next if that reply says what you are about to do now ("Next I'll...", "Now let me...", a tool call you announced but did not make), or if it stops abruptly, mid-thought.
2. The user speaks next if that reply ends with a question put to the user.
3. Otherwise the reply is complete and waits for the user: the user speaks next.
Answer in the requested JSON format.`;

/**
 * Decides whether the model should go on after a turn without tool calls (Gemini CLI's next-speaker
 * check). Fast paths make no model call; otherwise one call to `input.model`. Any failure (bad or
 * missing JSON, an API error, an unreadable transcript) means "user": the check can only ever stop
 * a prompt early, never fail it. Only cancellation is thrown (and, with `maxAttempts` above 1, a
 * retryable failure while attempts remain).
 */
export async function checkNextSpeaker(deps: NextSpeakerDeps, input: NextSpeakerInput): Promise<NextSpeakerResult> {
  let asked = false;
  try {
    const history = await deps.store.readMessages(input.transcriptId, input.length);
    const fast = nextSpeakerFastPath(history);
    if (fast.next !== 'ask') return { next: fast.next, reasoning: fast.reasoning, asked };
    asked = true;
    const contents: Content[] = [...curatedHistory(history), { role: 'user', parts: [{ text: CHECK_PROMPT }] }];
    const config = { temperature: 0, responseJsonSchema: NEXT_SPEAKER_JSON_SCHEMA };
    const json = await generateJsonAnswer(deps.models, { model: input.model, contents, config }, input.maxAttempts);
    const parsed = answerSchema.safeParse(json);
    if (!parsed.success) return { next: 'user', reasoning: 'The check gave no usable answer.', asked: true };
    return { next: parsed.data.next_speaker, reasoning: parsed.data.reasoning, asked: true };
  } catch (err) {
    throwIfCancelledOrRetrying(err);
    Context.current().log.warn('next-speaker check failed; the user speaks next', { error: messageOf(err) });
    return { next: 'user', reasoning: `The check failed: ${messageOf(err)}`, asked };
  }
}

/** Thrown to make Temporal try a JSON call again; never escapes the last attempt. */
class RetryJsonCall extends Error {
  constructor(readonly failure: Error) {
    super(failure.message);
  }
}

/**
 * One JSON-answer utility call, shared by the next-speaker check and the router: adds the JSON
 * response type and the activity's cancellation signal, and returns the parsed JSON (undefined if
 * the answer holds none). API errors are thrown classified. With attempts left
 * (`maxAttempts`), a retryable error or a JSON-less answer throws `RetryJsonCall` instead, which
 * `throwIfCancelledOrRetrying` lets out as a retryable failure.
 */
export async function generateJsonAnswer(models: JsonModelSeam, request: GenerateContentParameters, maxAttempts = 1): Promise<unknown> {
  const ctx = Context.current();
  const attemptsLeft = ctx.info.attempt < maxAttempts;
  let response: GenerateContentResponse;
  try {
    response = await models.generateContent({ ...request, config: { ...request.config, responseMimeType: 'application/json', abortSignal: ctx.cancellationSignal } });
  } catch (err) {
    const failure = classifyModelError(err);
    if (attemptsLeft && failure instanceof ApplicationFailure && !failure.nonRetryable) throw new RetryJsonCall(failure);
    throw failure;
  }
  const json = parseJson(answerText(response));
  if (json === undefined && attemptsLeft) {
    throw new RetryJsonCall(ApplicationFailure.create({ type: MODEL_ERROR_TYPES.invalidResponse, message: `${request.model} answered without JSON` }));
  }
  return json;
}

/** Lets cancellation and a requested retry out of a "never fails" activity; swallows the rest. */
export function throwIfCancelledOrRetrying(err: unknown): void {
  const signal = Context.current().cancellationSignal;
  if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : err;
  if (err instanceof RetryJsonCall) throw err.failure;
}

/** The answer's text parts (thoughts left out); works for SDK responses and plain fakes alike. */
function answerText(response: GenerateContentResponse): string {
  const parts = response.candidates?.[0]?.content?.parts ?? [];
  return parts
    .filter((p) => !p.thought && typeof p.text === 'string')
    .map((p) => p.text)
    .join('')
    .trim();
}

/** JSON from the answer, unwrapping a ```json fence some models add; undefined if there is none. */
function parseJson(text: string): unknown {
  const unfenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/.exec(text)?.[1] ?? text;
  if (unfenced === '') return undefined;
  try {
    return JSON.parse(unfenced) as unknown;
  } catch {
    return undefined;
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
