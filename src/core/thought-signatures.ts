import type { Content, Part } from '@google/genai';
import { needsThoughtSignatures } from './models';

/**
 * The signature the Gemini API documents for a function call that has none (one a hook made up, or
 * one from another model): with it, Gemini 3 accepts the call instead of answering 400.
 */
export const SKIP_THOUGHT_SIGNATURE = 'skip_thought_signature_validator';

/**
 * The request's contents with the placeholder signature on the first function call of each model turn
 * of the active loop (the turns since the last user message with text and no function response) that
 * lacks one, as Gemini CLI sends them. Earlier turns are left alone: the API checks only the active loop.
 * Returns new objects where it adds a signature; the transcript keeps what the model (or hook) said.
 */
export function withSignaturePlaceholders(contents: Content[], model: string): Content[] {
  if (!needsThoughtSignatures(model)) return contents;
  const start = activeLoopStart(contents);
  return contents.map((content, i) => (i > start && content.role === 'model' ? signFirstCall(content) : content));
}

function activeLoopStart(contents: Content[]): number {
  for (let i = contents.length - 1; i >= 0; i--) {
    const parts = contents[i].parts ?? [];
    if (contents[i].role === 'user' && parts.some((p) => p.text) && !parts.some((p) => p.functionResponse)) return i;
  }
  return -1;
}

function signFirstCall(content: Content): Content {
  const parts = content.parts ?? [];
  const first = parts.findIndex((p) => p.functionCall);
  if (first < 0 || parts[first].thoughtSignature) return content;
  const signed: Part = { ...parts[first], thoughtSignature: SKIP_THOUGHT_SIGNATURE };
  return { ...content, parts: parts.map((p, i) => (i === first ? signed : p)) };
}
