import type { Content } from '@google/genai';
import type { TranscriptStore } from './types';

/**
 * Writes a whole transcript by index, from 0. Messages are written by position, so a retried activity attempt
 * rewrites its own earlier writes instead of appending after them.
 */
export async function writeTranscript(
  store: TranscriptStore,
  transcriptId: string,
  contents: Content[],
  attempt: number,
): Promise<void> {
  for (const [index, message] of contents.entries()) await store.writeMessage(transcriptId, index, message, attempt);
}
