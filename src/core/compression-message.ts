import { COMPRESSION_STATUS } from './compression';

/** Below this many tokens, an attempt whose summary came out larger is simply not worth it. */
const SMALL_HISTORY_TOKENS = 50_000;

/**
 * The line a person reads about one compression attempt, worded as Gemini CLI 0.61.0 words it (scripts
 * and people match on it). Only the truncation-only outcome, which Gemini CLI does not put into words,
 * has a text of ours.
 */
export function compressionMessage(status: string, originalTokens: number, newTokens: number): string {
  switch (status) {
    case COMPRESSION_STATUS.compressed:
      return `Chat history compressed from ${originalTokens} to ${newTokens} tokens.`;
    case COMPRESSION_STATUS.inflated:
      return originalTokens < SMALL_HISTORY_TOKENS
        ? 'Compression was not beneficial for this history size.'
        : 'Chat history compression did not reduce size. This may indicate issues with the compression prompt.';
    case COMPRESSION_STATUS.emptySummary:
      return 'Chat history compression failed: the model returned an empty summary.';
    case COMPRESSION_STATUS.noop:
      return 'Nothing to compress.';
    case COMPRESSION_STATUS.contentTruncated:
      return `Old tool outputs shortened from ${originalTokens} to ${newTokens} tokens; nothing was summarised.`;
    default:
      return `Chat history was not compressed (${status}).`;
  }
}
