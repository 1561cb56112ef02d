import type { GenerateContentParameters } from '@google/genai';
import type { AssembledTurn } from '../../core/assemble-turn';
import { assembleTurn } from '../../core/assemble-turn';
import type { TranscriptStore } from '../../store/types';
import {
  applyHookRequest,
  hookResponseChunk,
  hookResponseText,
  type HookLlmRequest,
  type HookLlmResponse,
} from './llm-shapes';

/**
 * A hook's rewrite of a recorded model turn outranks every attempt of the model activity that
 * wrote it (the store keeps the write with the highest attempt number).
 */
const HOOK_REWRITE_ATTEMPT = 1_000_000;

/** What BeforeModel and BeforeToolSelection hooks decided for one model request (all optional). */
export interface ModelHookInput {
  /** BeforeModel's `llm_request`, by blob reference. */
  requestRef?: string;
  /** BeforeModel's `llm_response`, by blob reference: the answer, without asking the model. */
  responseRef?: string;
  /** BeforeToolSelection's function-calling mode (`ANY` forces a call). */
  toolMode?: 'AUTO' | 'ANY' | 'NONE';
}

/** The request with a BeforeModel override and BeforeToolSelection's mode applied. */
export async function applyModelHooks(
  store: TranscriptStore,
  hooks: ModelHookInput | undefined,
  request: GenerateContentParameters,
): Promise<GenerateContentParameters> {
  let out = request;
  if (hooks?.requestRef)
    out = applyHookRequest(out, JSON.parse(await store.getBlob(hooks.requestRef)) as Partial<HookLlmRequest>);
  if (hooks?.toolMode && hooks.toolMode !== 'AUTO') {
    out = {
      ...out,
      config: { ...out.config, toolConfig: { functionCallingConfig: { mode: hooks.toolMode } } },
    } as GenerateContentParameters;
  }
  return out;
}

/** BeforeModel's synthetic response as the turn, when there is one: the model is not asked. */
export async function syntheticTurn(
  store: TranscriptStore,
  hooks: ModelHookInput | undefined,
  turn: number,
): Promise<AssembledTurn | undefined> {
  if (!hooks?.responseRef) return undefined;
  const response = JSON.parse(await store.getBlob(hooks.responseRef)) as HookLlmResponse;
  return assembleTurn([hookResponseChunk(response)], turn);
}

/**
 * AfterModel: the recorded model message at `index` becomes the hook's response (text only, as
 * Gemini CLI's response shape has only text), or, for a stop or block without one, a note saying
 * why the answer was withheld. Either way no function call is left without a response.
 */
export async function rewriteModelTurn(
  store: TranscriptStore,
  transcriptId: string,
  index: number,
  response: Record<string, unknown> | undefined,
  reason: string | undefined,
): Promise<{ text: string; finishReason: string }> {
  const replacement = response
    ? hookResponseText(response as HookLlmResponse)
    : { text: `[The response was withheld by a hook: ${reason ?? 'No reason provided'}]`, finishReason: 'STOP' };
  await store.writeMessage(
    transcriptId,
    index,
    { role: 'model', parts: [{ text: replacement.text }] },
    HOOK_REWRITE_ATTEMPT,
  );
  return replacement;
}
