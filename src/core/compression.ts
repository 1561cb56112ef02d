import type { Content, Part } from '@google/genai';
import {
  COMPRESSION_PRESERVE_THRESHOLD,
  COMPRESSION_THRESHOLD,
  FUNCTION_RESPONSE_TOKEN_BUDGET,
  TRUNCATE_TOOL_OUTPUT_CHARS,
  estimateTextTokens,
  estimateTokens,
  functionResponseText,
} from './tokens';
import { tokenLimit } from './models';

/**
 * The decisions of chat compression, free of I/O: when to compress, where to split the history,
 * and how older tool outputs are shortened first. The activity (src/activities/compress.ts) does
 * the reading, the model calls and the writing.
 */

/** Outcome of one compression attempt; plain strings so that they read well in events and history. */
export const COMPRESSION_STATUS = {
  /** The older part was replaced by a summary. */
  compressed: 'compressed',
  /** The summary would have made the history larger (`COMPRESSION_FAILED_INFLATED_TOKEN_COUNT`); nothing changed. */
  inflated: 'compression_failed_inflated_token_count',
  /** The model returned no summary; nothing changed. */
  emptySummary: 'compression_failed_empty_summary',
  /** Below the threshold, empty history, or too little before the split point to summarise (`NOOP`). */
  noop: 'noop',
  /** After an earlier failure: only old tool outputs were shortened, without a model call. */
  contentTruncated: 'content_truncated',
} as const;

export type CompressionStatus = (typeof COMPRESSION_STATUS)[keyof typeof COMPRESSION_STATUS];

/** What an attempt should do: nothing, summarise with the model, or only shorten old tool outputs. */
export type CompressionAction = 'none' | 'summarise' | 'truncate';

export interface CompressionTrigger {
  /** `promptTokenCount` of the last response's usage metadata (or the estimate after a compression). */
  lastPromptTokens: number;
  model: string;
  /** A manual request: ignores the threshold and any earlier failure. */
  force: boolean;
  /** An earlier unforced attempt was rejected as inflated (see `failedAttemptAfter`). */
  hasFailedBefore: boolean;
  /** Share of the token limit that triggers compression; Gemini CLI's 0.5 unless configured. */
  threshold?: number;
}

/**
 * Unforced compression starts at `threshold × tokenLimit(model)` prompt tokens. Once an unforced
 * summary was rejected as inflated, later unforced attempts only truncate (no model call); a
 * forced attempt always summarises.
 */
export function shouldCompress(trigger: CompressionTrigger): CompressionAction {
  const threshold = trigger.threshold ?? COMPRESSION_THRESHOLD;
  if (!trigger.force && trigger.lastPromptTokens < threshold * tokenLimit(trigger.model)) return 'none';
  return trigger.hasFailedBefore && !trigger.force ? 'truncate' : 'summarise';
}

/** The failed-attempt flag after an attempt: set by an unforced inflated summary, never cleared. */
export function failedAttemptAfter(hasFailedBefore: boolean, status: CompressionStatus, force: boolean): boolean {
  return hasFailedBefore || (status === COMPRESSION_STATUS.inflated && !force);
}

/**
 * Index at which to split `contents` into the part to summarise (`[0, i)`) and the part to keep.
 * Only a user message without function responses starts the kept part, so a function call and its
 * response are never separated. Returns the first such index with at least `fraction` of all
 * characters (JSON length) before it; failing that, `length` when the history ends with a model
 * message that makes no function call (everything can go), else the last valid index seen (0 when
 * there is none: nothing to compress).
 */
export function findCompressSplitPoint(
  contents: readonly Content[],
  fraction = 1 - COMPRESSION_PRESERVE_THRESHOLD,
): number {
  if (fraction <= 0 || fraction >= 1) throw new RangeError(`fraction must be between 0 and 1, got ${fraction}`);
  const sizes = contents.map((content) => JSON.stringify(content).length);
  const target = sizes.reduce((sum, size) => sum + size, 0) * fraction;
  let before = 0;
  let lastValid = 0;
  for (let i = 0; i < contents.length; i++) {
    if (isPlainUserMessage(contents[i])) {
      if (before >= target) return i;
      lastValid = i;
    }
    before += sizes[i];
  }
  const last = contents[contents.length - 1];
  if (last?.role === 'model' && !(last.parts ?? []).some((part) => part.functionCall)) return contents.length;
  return lastValid;
}

/**
 * Estimated tokens below which the part before the split point is not worth a summary: a state
 * snapshot in our form plus its acknowledgement rarely comes out smaller, so Gemini CLI 0.61.0's
 * model call there ends as "not beneficial". Such a part is left as it is, without a model call.
 */
export const MIN_TOKENS_TO_SUMMARISE = 500;

/** Whether `older` (the part before the split point) holds enough to summarise. */
export function worthSummarising(older: readonly Content[]): boolean {
  return older.length > 0 && estimateTokens(older) >= MIN_TOKENS_TO_SUMMARISE;
}

function isPlainUserMessage(content: Content): boolean {
  return content.role === 'user' && !(content.parts ?? []).some((part) => part.functionResponse);
}

/** Keeps a full tool output somewhere the model can read it back; returns the reference to cite. */
export type KeepFullText = (text: string, toolName: string) => Promise<string>;

export interface TruncateOptions {
  keep: KeepFullText;
  /** Characters of each shortened output that stay visible (`truncateToolOutputThreshold`). */
  maxChars?: number;
}

/**
 * The "reverse token budget": walks the history newest to oldest, summing the estimated tokens of
 * function-response text (`functionResponseText`). A response that fits the remaining budget is
 * kept whole; one that does not is kept in full through `keep` and replaced by
 * `{ output: <head and tail excerpt with a note> }`, and the excerpt counts against the budget.
 * Responses no longer than `maxChars` are kept as they are. Returns new contents (the input is not
 * changed) and the number of responses shortened.
 */
export async function truncateOldFunctionResponses(
  contents: readonly Content[],
  budget: number = FUNCTION_RESPONSE_TOKEN_BUDGET,
  options: TruncateOptions,
): Promise<{ contents: Content[]; truncated: number }> {
  const maxChars = options.maxChars ?? TRUNCATE_TOOL_OUTPUT_CHARS;
  const result = [...contents];
  let used = 0;
  let truncated = 0;
  for (let i = contents.length - 1; i >= 0; i--) {
    const parts = [...(contents[i].parts ?? [])];
    let changed = false;
    for (let j = parts.length - 1; j >= 0; j--) {
      const response = parts[j].functionResponse;
      if (!response) continue;
      const text = functionResponseText(response.response);
      const tokens = Math.floor(estimateTextTokens(text));
      if (used + tokens <= budget || text.length <= maxChars) {
        used += tokens;
        continue;
      }
      const ref = await options.keep(text, response.name ?? 'unknown_tool');
      const excerpt = formatTruncatedOutput(text, ref, maxChars);
      parts[j] = { functionResponse: { ...response, response: { output: excerpt } } } satisfies Part;
      used += Math.floor(estimateTextTokens(excerpt));
      truncated += 1;
      changed = true;
    }
    if (changed) result[i] = { ...contents[i], parts };
  }
  return { contents: result, truncated };
}

/**
 * The first 20% and last 80% of `maxChars` characters of `text`, with a note that says how much was
 * cut and which reference holds the whole output.
 */
export function formatTruncatedOutput(text: string, ref: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const head = Math.floor(maxChars * 0.2);
  const tail = maxChars - head;
  const cut = text.length - head - tail;
  const n = (value: number) => value.toLocaleString('en-US');
  return (
    `[Output shortened to save context: ${n(cut)} of ${n(text.length)} characters were cut from the middle; ` +
    `the first ${n(head)} and the last ${n(tail)} are shown. The full output is stored as ${ref}: ` +
    `read any part of it with read_tool_output.]\n${text.slice(0, head)}\n\n[... ${n(cut)} characters cut ...]\n\n` +
    (tail > 0 ? text.slice(-tail) : '')
  );
}

/** The context-window overflow check before a model request (Gemini CLI's `ContextWindowWillOverflow`). */
export interface ContextFit {
  fits: boolean;
  estimatedRequestTokens: number;
  /** `tokenLimit(model) - lastPromptTokens`. */
  remainingTokens: number;
}

/**
 * Whether the new message (`requestTokens`, estimated) still fits after the last prompt. When it
 * does not, the turn ends without calling the model.
 */
export function checkContextFit(model: string, lastPromptTokens: number, requestTokens: number): ContextFit {
  const remainingTokens = tokenLimit(model) - lastPromptTokens;
  return { fits: requestTokens <= remainingTokens, estimatedRequestTokens: requestTokens, remainingTokens };
}
