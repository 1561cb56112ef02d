import type { Part } from '@google/genai';
import type { NewPart } from '../core/types';
import type { TranscriptStore } from '../store/types';

/** Builds the user message parts, reading long texts and large function responses from the store. */
export async function toParts(append: NewPart[], store: TranscriptStore): Promise<Part[]> {
  return Promise.all(
    append.map(async (part): Promise<Part> => {
      if (part.kind === 'text') return { text: part.textRef ? await store.getBlob(part.textRef) : part.text };
      const response = part.responseRef
        ? (JSON.parse(await store.getBlob(part.responseRef)) as Record<string, unknown>)
        : (part.response ?? {});
      return { functionResponse: { id: part.callId, name: part.name, response } };
    }),
  );
}
