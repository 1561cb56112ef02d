import type { Content, Part } from '@google/genai';
import { TranscriptGapError, type TranscriptStore } from '../store/types';
import { writeTranscript } from '../store/write-transcript';

export interface CutTranscriptInput {
  /** Where the conversation is cut: the first `length` messages of transcript `id`. */
  from: { id: string; length: number };
  /** The new transcript; `from` is never changed (a session's next prompt appends to the new one). */
  newTranscriptId: string;
}

/** Said to the model for a call of the last kept turn whose response the store does not hold at the cut. */
export const CUT_RESPONSE = 'The conversation was rewound to this point; the outcome of this call was not kept.';

/**
 * A copy of a transcript's first `length` messages under a new id, for a rewound or forked conversation. Transcripts
 * are append-only by index, so continuing the old one from a shorter length would overwrite its later messages.
 * When the last kept message is a model turn with function calls, their responses (the message that follows it, when
 * the store has it) come along, so every call keeps its one response; calls without one get `CUT_RESPONSE`.
 * Returns the new transcript's reference. Written by index, so a retried attempt rewrites the same messages.
 */
export async function cutTranscript(
  store: TranscriptStore,
  input: CutTranscriptInput,
  attempt = 1,
): Promise<{ id: string; length: number }> {
  const kept = await store.readMessages(input.from.id, input.from.length);
  const answers = await answersOf(store, input.from, kept.at(-1));
  const messages = answers ? [...kept, answers] : kept;
  await writeTranscript(store, input.newTranscriptId, messages, attempt);
  return { id: input.newTranscriptId, length: messages.length };
}

/** The user message answering the last kept model turn's calls, or undefined when it made none. */
async function answersOf(
  store: TranscriptStore,
  from: CutTranscriptInput['from'],
  last: Content | undefined,
): Promise<Content | undefined> {
  const calls = (last?.role === 'model' ? (last.parts ?? []) : []).flatMap((part) =>
    part.functionCall ? [part.functionCall] : [],
  );
  if (calls.length === 0) return undefined;
  const next = await nextMessage(store, from);
  const responses = (next?.role === 'user' ? (next.parts ?? []) : []).filter((part) => part.functionResponse);
  // The model's calls carry no ids when it gave none; the responses then follow them in order.
  const parts: Part[] = calls.map(
    (call, i) =>
      responses.find((part) => call.id && part.functionResponse?.id === call.id) ??
      (responses[i]?.functionResponse?.name === call.name ? responses[i] : undefined) ?? {
        functionResponse: { id: call.id, name: call.name, response: { error: CUT_RESPONSE } },
      },
  );
  return { role: 'user', parts };
}

async function nextMessage(store: TranscriptStore, from: CutTranscriptInput['from']): Promise<Content | undefined> {
  try {
    return (await store.readMessages(from.id, from.length + 1))[from.length];
  } catch (err) {
    if (err instanceof TranscriptGapError) return undefined;
    throw err;
  }
}
