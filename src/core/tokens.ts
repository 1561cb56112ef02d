import type { Content, Part } from '@google/genai';
import { tokenLimit } from './models';

/**
 * Token estimates and context-management constants, as Gemini CLI uses them. The estimate is a
 * heuristic (no `countTokens` call): cheap, deterministic, and the same on every side of the wire.
 */

/** Compress once the last prompt used this share of the model's token limit. */
export const COMPRESSION_THRESHOLD = 0.5;
/** Share of the history (by characters) kept verbatim after a compression: the newest 30%. */
export const COMPRESSION_PRESERVE_THRESHOLD = 0.3;
/** Tokens of function-response text kept whole, newest first, before older ones are shortened. */
export const FUNCTION_RESPONSE_TOKEN_BUDGET = 50_000;
/** Characters of a shortened tool output the model still sees (20% head, 80% tail). */
export const TRUNCATE_TOOL_OUTPUT_CHARS = 40_000;

/** Masking: the newest tool outputs up to this many tokens are never masked. */
export const MASKING_PROTECTION_THRESHOLD = 50_000;
/** Masking happens only when at least this many tokens of older outputs can be masked at once. */
export const MASKING_MIN_PRUNABLE_TOKENS = 30_000;
/** Masking leaves the most recent history entry alone. */
export const MASKING_PROTECT_LATEST_TURN = true;

const ASCII_TOKENS_PER_CHAR = 0.25;
const NON_ASCII_TOKENS_PER_CHAR = 1.5;
/** Longer strings are estimated as length / 4 without a per-character scan. */
const FULL_HEURISTIC_MAX_CHARS = 100_000;
const IMAGE_TOKENS = 3000;
const PDF_TOKENS = 25_800;

/** ASCII characters count 0.25 tokens, others 1.5; strings over 100,000 characters count length / 4. */
export function estimateTextTokens(text: string): number {
  if (text.length > FULL_HEURISTIC_MAX_CHARS) return text.length / 4;
  let tokens = 0;
  for (const char of text)
    tokens += (char.codePointAt(0) ?? 0) <= 127 ? ASCII_TOKENS_PER_CHAR : NON_ASCII_TOKENS_PER_CHAR;
  return tokens;
}

/** One part: text by the character heuristic, media by fixed sizes, everything else from its JSON (length / 4). */
export function estimatePartTokens(part: Part): number {
  if (typeof part.text === 'string') return estimateTextTokens(part.text);
  if (part.functionResponse) {
    const { name, response } = part.functionResponse;
    const body = response === undefined ? '' : typeof response === 'string' ? response : JSON.stringify(response);
    return ((name?.length ?? 0) + body.length) / 4;
  }
  const mimeType = part.inlineData?.mimeType ?? part.fileData?.mimeType;
  if (mimeType?.startsWith('image/')) return IMAGE_TOKENS;
  if (mimeType === 'application/pdf') return PDF_TOKENS;
  return JSON.stringify(part).length / 4;
}

/** Estimated tokens of a request made of these contents (whole tokens, rounded down). */
export function estimateTokens(contents: readonly Content[]): number {
  let total = 0;
  for (const content of contents) for (const part of content.parts ?? []) total += estimatePartTokens(part);
  return Math.floor(total);
}

/**
 * The text that stands for a function response when it is measured, shortened or masked: the
 * response itself if it is a string, its `output` or `content` string field, else its pretty JSON.
 */
export function functionResponseText(response: unknown): string {
  if (typeof response === 'string') return response;
  if (typeof response === 'object' && response !== null) {
    const r = response as Record<string, unknown>;
    if (typeof r.output === 'string') return r.output;
    if (typeof r.content === 'string') return r.content;
  }
  return JSON.stringify(response, null, 2) ?? '';
}

/**
 * Characters of a tool output shown once it is shortened: 40,000, or four characters per token
 * still free in the context window when that is less.
 */
export function truncateToolOutputThreshold(model: string, lastPromptTokens: number): number {
  return Math.max(0, Math.min(4 * (tokenLimit(model) - lastPromptTokens), TRUNCATE_TOOL_OUTPUT_CHARS));
}
