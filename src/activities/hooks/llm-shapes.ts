import type { Content, GenerateContentParameters } from '@google/genai';
import type { StreamChunk } from '../../core/assemble-turn';

/**
 * Gemini CLI's SDK-independent request and response shapes for model hooks (`hookTranslator`):
 * messages carry text only, responses are candidates whose parts are strings.
 */
export interface HookLlmRequest {
  model: string;
  messages: { role: 'user' | 'model' | 'system'; content: string }[];
  config?: Record<string, unknown>;
  toolConfig?: { mode?: string; allowedFunctionNames?: string[] };
}

export interface HookLlmResponse {
  text?: string;
  candidates?: { content?: { role?: string; parts?: unknown[] }; finishReason?: string; index?: number }[];
  usageMetadata?: { promptTokenCount?: number; candidatesTokenCount?: number; totalTokenCount?: number };
}

/** Generation settings a BeforeModel hook may change (the rest of the request stays ours). */
const CONFIG_KEYS = [
  'temperature',
  'maxOutputTokens',
  'topP',
  'topK',
  'stopSequences',
  'candidateCount',
  'presencePenalty',
  'frequencyPenalty',
  'seed',
];

export function toHookRequest(model: string, contents: Content[], toolNames?: string[]): HookLlmRequest {
  const messages = contents.flatMap((c) => {
    const text = (c.parts ?? []).map((p) => p.text ?? '').join('');
    return text ? [{ role: c.role === 'model' ? ('model' as const) : ('user' as const), content: text }] : [];
  });
  return {
    model,
    messages,
    config: {},
    ...(toolNames ? { toolConfig: { mode: 'AUTO', allowedFunctionNames: toolNames } } : {}),
  };
}

export function toHookResponse(content: Content | undefined, finishReason?: string): HookLlmResponse {
  const parts = (content?.parts ?? []).flatMap((p) => (p.text && !p.thought ? [p.text] : []));
  return {
    text: parts.join(''),
    candidates: [{ content: { role: 'model', parts }, finishReason: finishReason ?? 'STOP', index: 0 }],
  };
}

/** The text and finish reason of a hook's response (string parts, or `text` when there are no candidates). */
export function hookResponseText(response: HookLlmResponse): { text: string; finishReason: string } {
  const candidate = response.candidates?.[0];
  const parts = (candidate?.content?.parts ?? []).map((p) =>
    typeof p === 'string' ? p : typeof (p as { text?: unknown })?.text === 'string' ? (p as { text: string }).text : '',
  );
  const text = parts.length > 0 ? parts.join('') : (response.text ?? '');
  return { text, finishReason: candidate?.finishReason ?? 'STOP' };
}

/** A hook's response as the one chunk of a model stream, so it is assembled and recorded like any answer. */
export function hookResponseChunk(response: HookLlmResponse): StreamChunk {
  const { text, finishReason } = hookResponseText(response);
  const usage = response.usageMetadata;
  return { candidates: [{ content: { parts: [{ text }] }, finishReason }], ...(usage ? { usageMetadata: usage } : {}) };
}

/**
 * A BeforeModel hook's `llm_request` applied to our request, as Gemini CLI applies it: `model` and
 * generation settings override ours; `messages`, when given, replace the contents (text only).
 */
export function applyHookRequest(
  request: GenerateContentParameters,
  hook: Partial<HookLlmRequest>,
): GenerateContentParameters {
  const config = { ...request.config };
  for (const key of CONFIG_KEYS)
    if (hook.config && key in hook.config) (config as Record<string, unknown>)[key] = hook.config[key];
  const contents = Array.isArray(hook.messages)
    ? hook.messages.map((m) => ({ role: m.role === 'model' ? 'model' : 'user', parts: [{ text: String(m.content) }] }))
    : request.contents;
  return {
    ...request,
    model: typeof hook.model === 'string' && hook.model ? hook.model : request.model,
    contents,
    config,
  };
}
