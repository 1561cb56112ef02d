import { Context } from '@temporalio/activity';
import { sideCallConfig } from '../core/models';
import type { Content } from '@google/genai';
import { z } from 'zod';
import {
  LLM_CONFIDENCE_THRESHOLD,
  LLM_LOOP_CHECK_HISTORY_COUNT,
  LLM_LOOP_CHECK_MAX_ATTEMPTS,
  type LoopCheckResult,
} from '../core/loop/llm-schedule';
import type { TranscriptStore } from '../store/types';
import { hasAttemptsLeft, noJsonFailure, requestJson } from './json-answer';
import type { JsonModelSeam } from '../model/seam';

export interface LoopCheckDeps {
  models: JsonModelSeam;
  store: TranscriptStore;
}

export interface LoopCheckInput {
  transcriptId: string;
  /** Messages of the transcript the check looks at: those before the request about to be sent. */
  length: number;
  model: string;
  /** The user's prompt, so the judge can tell batch work asked for from a loop. */
  prompt?: string;
  /**
   * The retry policy's `maximumAttempts` (default 2, Gemini CLI's). An answer with no JSON fails
   * this attempt retryably while attempts remain, as Gemini CLI asks again; on the last it is "no answer".
   */
  maxAttempts?: number;
}

/** The answer's JSON Schema, sent as `responseJsonSchema`; the field names are Gemini CLI's protocol. */
export const LOOP_CHECK_JSON_SCHEMA = {
  type: 'object',
  properties: {
    unproductive_state_analysis: {
      type: 'string',
      description: 'Why the conversation is, or is not, going round in circles without progress.',
    },
    unproductive_state_confidence: {
      type: 'number',
      description: 'From 0.0 to 1.0: how sure you are that the assistant is stuck in an unproductive state.',
    },
  },
  required: ['unproductive_state_analysis', 'unproductive_state_confidence'],
} as const;

/** Parses an answer as Gemini CLI reads it: a numeric confidence is required, a missing analysis is ''. */
export const loopCheckAnswerSchema = z.object({
  unproductive_state_analysis: z.string().catch(''),
  unproductive_state_confidence: z.number(),
});

const SYSTEM_PROMPT = `You review the recent history of a conversation between a user and an AI coding assistant, and \
judge whether the assistant is stuck: repeating itself without getting closer to what the user asked for.

Call it stuck only when both hold:
1. The assistant's last five or more actions (its tool calls or replies) repeat a pattern.
2. That repetition achieves nothing: no new information, no change, no step towards the goal.

Signs of being stuck: the same tool called with the same (or equivalent) arguments and getting the same result again; \
going back and forth between the same actions (edit, build, same error, same edit) with identical arguments and \
outcomes; restating the same plan or question over and over without acting.

Not stuck: the same tool applied to different files, paths, queries or line ranges (batch work, reading through a \
codebase); successive edits to different parts of one file; re-running a build or test after changing code; retrying \
with changed arguments or a new approach. Always compare the arguments of the calls, not only the tool names.

If the original request is given, use it: when it asks for work over many items ("every file", "all modules"), \
similar calls with varying arguments are expected.

Answer in the JSON format requested.`;

const TASK =
  'Judge whether the conversation above shows the assistant stuck in an unproductive loop, taking the original ' +
  'request into account. Answer in the requested JSON format.';

/**
 * One loop-check model call (one activity; Temporal owns retries). Sends the last 20 messages of the
 * transcript to `input.model` and returns its verdict. Bad model output never fails the activity
 * for good: it becomes "no answer" (`answered: false`, not a loop). Provider errors are classified
 * by `classifyModelError` (a 400 fails at once; 429 and 5xx retry).
 */
export async function checkForLoop(deps: LoopCheckDeps, input: LoopCheckInput): Promise<LoopCheckResult> {
  const history = await deps.store.readMessages(input.transcriptId, input.length);
  const json = await requestJson(deps.models, {
    model: input.model,
    contents: loopCheckContents(history, input.prompt),
    config: {
      systemInstruction: SYSTEM_PROMPT,
      ...sideCallConfig(input.model),
      responseJsonSchema: LOOP_CHECK_JSON_SCHEMA,
      abortSignal: Context.current().cancellationSignal,
    },
  });
  if (json === undefined && hasAttemptsLeft(input.maxAttempts ?? LLM_LOOP_CHECK_MAX_ATTEMPTS))
    throw noJsonFailure('the loop-check model');
  const parsed = loopCheckAnswerSchema.safeParse(json);
  if (!parsed.success) return { isLoop: false, confidence: 0, analysis: '', model: input.model, answered: false };
  const confidence = Math.min(1, Math.max(0, parsed.data.unproductive_state_confidence));
  return {
    isLoop: confidence >= LLM_CONFIDENCE_THRESHOLD,
    confidence,
    analysis: parsed.data.unproductive_state_analysis,
    model: input.model,
    answered: true,
  };
}

/**
 * The request's contents, as Gemini CLI builds them: the last 20 messages without trailing
 * function-call turns (their responses are not there yet) or leading function-response turns (their
 * calls were cut off), after the original request and before the task; a user turn goes first if
 * the contents would otherwise open with a function call.
 */
export function loopCheckContents(history: Content[], prompt?: string): Content[] {
  const recent = history.slice(-LLM_LOOP_CHECK_HISTORY_COUNT);
  while (recent.length > 0 && isFunctionCallTurn(recent[recent.length - 1])) recent.pop();
  while (recent.length > 0 && isFunctionResponseTurn(recent[0])) recent.shift();
  const contents: Content[] = [];
  if (prompt) contents.push(userText(`<original_user_request>\n${prompt}\n</original_user_request>`));
  contents.push(...recent, userText(TASK));
  if (isFunctionCallTurn(contents[0])) contents.unshift(userText('The most recent part of the conversation:'));
  return contents;
}

/** A model turn of function calls only (thoughts aside). */
function isFunctionCallTurn(content: Content): boolean {
  const parts = content.parts ?? [];
  return (
    content.role === 'model' && parts.some((p) => p.functionCall) && parts.every((p) => p.functionCall || p.thought)
  );
}

function isFunctionResponseTurn(content: Content): boolean {
  const parts = content.parts ?? [];
  return content.role === 'user' && parts.length > 0 && parts.every((p) => p.functionResponse);
}

function userText(text: string): Content {
  return { role: 'user', parts: [{ text }] };
}
