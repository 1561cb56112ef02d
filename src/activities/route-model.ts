import { Context } from '@temporalio/activity';
import { routesByComplexityScore, sideCallConfig } from '../core/models';
import type { Content } from '@google/genai';
import { z } from 'zod';
import { classifierHistory } from '../core/routing';
import type { TranscriptStore } from '../store/types';
import { generateJsonAnswer, throwIfCancelledOrRetrying } from './json-answer';
import type { JsonModelSeam } from '../model/seam';
import {
  SCORE_JSON_SCHEMA,
  SCORE_SYSTEM_PROMPT,
  SCORE_THRESHOLD,
  scoreAnswerSchema,
  scoreHistory,
} from './route-score';

export interface RouteModelDeps {
  models: JsonModelSeam;
  store: TranscriptStore;
}

export interface RouteModelInput {
  transcriptId: string;
  /** Transcript length before the prompt's first request (the request is not in it yet). */
  length: number;
  /** The user's prompt text. */
  request: string;
  fastModel: string;
  strongModel: string;
  classifierModel: string;
  /** As in `NextSpeakerInput.maxAttempts`: default 1, never retried, never thrown. */
  maxAttempts?: number;
}

export interface RouteModelResult {
  model: string;
  reasoning: string;
  complexity: 'simple' | 'complex';
  /** `classifier`: the classifier chose; `default`: it failed, so the strong model (Gemini CLI's default). */
  source: 'classifier' | 'default';
}

/** The answer's JSON Schema, sent as `responseJsonSchema`; the field names are Gemini CLI's protocol. */
export const ROUTER_JSON_SCHEMA = {
  type: 'object',
  properties: {
    reasoning: { type: 'string', description: 'A short explanation of the choice in terms of the criteria.' },
    model_choice: { type: 'string', enum: ['flash', 'pro'] },
  },
  required: ['reasoning', 'model_choice'],
} as const;

const answerSchema = z.object({ reasoning: z.string(), model_choice: z.enum(['flash', 'pro']) });

const SYSTEM_PROMPT = `You route requests made to an AI coding assistant. Read the user's latest request (the last \
message), with the earlier messages as context, and decide how demanding it is. Choose "flash" (a fast model) for \
simple work or "pro" (a stronger, slower model) for complex work.

Choose "pro" when any of these holds:
- The work takes about four or more dependent steps or tool calls, or coordinated changes in several places.
- The user asks how or why: design, architecture, trade-offs, a plan or a strategy.
- The request is broad or vague and needs a lot of exploring before acting.
- A problem must be diagnosed from its symptoms, with an unknown cause.

Choose "flash" when the request is specific and bounded and takes one to three steps, such as reading a named file, \
listing a directory, running one command, or a small localised edit. How simple the work is matters more than how \
grand the wording sounds: "what is the cleanest way to rename this variable" is still a one-step edit.

Answer only with JSON of the form {"reasoning": "...", "model_choice": "flash" | "pro"}.`;

/**
 * The model router's classifier (one activity, one model call): picks the fast or the strong model
 * for a prompt from the request and the messages before it. Sticky for the whole prompt: the workflow
 * calls it once, and only for an `auto` model. Gemini 3 pairs use Gemini CLI's complexity score,
 * Gemini 2.5 its flash/pro choice; either answer is understood, so scripts of both protocols work.
 * Any failure routes to the strong model, as Gemini CLI's default strategy does; only cancellation
 * is thrown.
 */
export async function routeModel(deps: RouteModelDeps, input: RouteModelInput): Promise<RouteModelResult> {
  try {
    const history = await deps.store.readMessages(input.transcriptId, input.length);
    const scored = routesByComplexityScore(input.strongModel);
    const context = scored ? scoreHistory(history) : classifierHistory(history);
    const contents: Content[] = [...context, { role: 'user', parts: [{ text: input.request }] }];
    const json = await generateJsonAnswer(
      deps.models,
      {
        model: input.classifierModel,
        contents,
        config: {
          systemInstruction: scored ? SCORE_SYSTEM_PROMPT : SYSTEM_PROMPT,
          ...sideCallConfig(input.classifierModel),
          responseJsonSchema: scored ? SCORE_JSON_SCHEMA : ROUTER_JSON_SCHEMA,
        },
      },
      input.maxAttempts,
    );
    return routedBy(json, input) ?? strongByDefault(input, 'The classifier gave no usable answer.');
  } catch (err) {
    throwIfCancelledOrRetrying(err);
    const message = err instanceof Error ? err.message : String(err);
    Context.current().log.warn('model routing failed; using the strong model', { error: message });
    return strongByDefault(input, `The classifier failed: ${message}`);
  }
}

/** The choice an answer of either protocol makes, or undefined when it follows neither. */
function routedBy(json: unknown, input: RouteModelInput): RouteModelResult | undefined {
  const score = scoreAnswerSchema.safeParse(json);
  const choice = answerSchema.safeParse(json);
  if (!score.success && !choice.success) return undefined;
  const simple = score.success ? score.data.complexity_score < SCORE_THRESHOLD : choice.data!.model_choice === 'flash';
  const reasoning = score.success
    ? `[Score: ${score.data.complexity_score} / Threshold: ${SCORE_THRESHOLD}] ${score.data.complexity_reasoning}`
    : choice.data!.reasoning;
  return {
    model: simple ? input.fastModel : input.strongModel,
    reasoning,
    complexity: simple ? 'simple' : 'complex',
    source: 'classifier',
  };
}

function strongByDefault(input: RouteModelInput, reasoning: string): RouteModelResult {
  return { model: input.strongModel, reasoning, complexity: 'complex', source: 'default' };
}
