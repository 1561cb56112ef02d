import type { TranscriptStore } from '../store/types';

/**
 * Model text longer than this (characters) leaves the activity result by reference. A whole answer
 * travels inline in `callModel`'s result, and from there into events and the prompt's result; a
 * 3 MB answer made that result too large for Temporal (2 MiB per payload), so the activity failed
 * after the model call and was retried, calling the model again each time.
 */
export const TEXT_INLINE_LIMIT = 64 * 1024;

/**
 * The turn's text for the workflow: itself when short; otherwise its beginning with a note, and
 * `textRef`, the store reference of the whole text. Nothing is lost: the transcript holds the whole
 * turn, which the model sees on the next request.
 */
export async function inlineText(text: string, store: TranscriptStore): Promise<{ text: string; textRef?: string }> {
  if (text.length <= TEXT_INLINE_LIMIT) return { text };
  const textRef = await store.putBlob(text);
  const note =
    `\n\n[answer cut here: ${text.length} characters in all; the whole text is in the conversation's ` + `transcript]`;
  return { text: `${text.slice(0, TEXT_INLINE_LIMIT)}${note}`, textRef };
}
