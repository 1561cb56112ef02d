import { Context } from '@temporalio/activity';
import { sideCallConfig } from '../core/models';
import type { Content } from '@google/genai';
import { z } from 'zod';
import { curatedHistory, nextSpeakerFastPath } from '../core/next-speaker';
import type { TranscriptStore } from '../store/types';
import { generateJsonAnswer, throwIfCancelledOrRetrying } from './json-answer';
import type { JsonModelSeam } from '../model/seam';

export { CONTINUE_TEXT } from '../core/next-speaker';

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
    reasoning: {
      type: 'string',
      description: 'A short justification of the choice, citing the rule that applies to the last reply.',
    },
    next_speaker: {
      type: 'string',
      enum: ['user', 'model'],
      description: 'Who speaks next, judged from the last reply alone.',
    },
  },
  required: ['reasoning', 'next_speaker'],
} as const;

const answerSchema = z.object({ reasoning: z.string().catch(''), next_speaker: z.enum(['user', 'model']) });

const CHECK_PROMPT = `Look only at the reply you just gave (your last message above) and decide who should speak \
next: the user, or you (the model). Apply the first rule that fits:
1. You speak next if that reply says what you are about to do now ("Next I'll...", "Now let me...", a tool call you \
announced but did not make), or if it stops abruptly, mid-thought.
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
    const config = { ...sideCallConfig(input.model), responseJsonSchema: NEXT_SPEAKER_JSON_SCHEMA };
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

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
