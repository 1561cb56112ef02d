import type { Content, Part } from '@google/genai';
import { storedRefOf } from '../core/media';
import { SKIP_THOUGHT_SIGNATURE } from '../core/thought-signatures';
import { getBlobIfStored } from '../store/blobs';
import type { TranscriptStore } from '../store/types';

/**
 * The model turn between a tool's function response and the audio or video it read: the API takes
 * those only in a user message of their own, and two user messages in a row would merge. The
 * placeholder signature lets Gemini 3 accept a model turn it did not write.
 */
export const MEDIA_FOLLOWS: Content = {
  role: 'model',
  parts: [{ text: 'The file content follows.', thoughtSignature: SKIP_THOUGHT_SIGNATURE }],
};

/** What the model reads instead of a file whose stored bytes are gone. */
function missingNote(mimeType: string): string {
  return (
    `[A file (${mimeType}) read earlier in this conversation is no longer in the transcript store, so its ` +
    `content cannot be shown. Read the file again if you need it.]`
  );
}

/**
 * The contents of a request with every stored file reference (see core/media) replaced by its bytes,
 * in the request only: the transcript keeps the reference. A reference the store no longer holds
 * becomes a note the model can act on, never a failed request.
 */
export async function expandStoredMedia(contents: Content[], store: TranscriptStore): Promise<Content[]> {
  const bytesOf = (ref: string) => getBlobIfStored(store, ref);
  return Promise.all(
    contents.map(async (content) => {
      if (!content.parts?.some(hasStoredMedia)) return content;
      const parts = await Promise.all(content.parts.map((part) => expandPart(part, bytesOf)));
      return { ...content, parts: parts.flat() };
    }),
  );
}

function hasStoredMedia(part: Part): boolean {
  if (storedRefOf(part.inlineData?.data)) return true;
  return !!part.functionResponse?.parts?.some((p) => storedRefOf(p.inlineData?.data));
}

type BytesOf = (ref: string) => Promise<string | undefined>;

async function expandPart(part: Part, bytesOf: BytesOf): Promise<Part[]> {
  const ref = storedRefOf(part.inlineData?.data);
  if (ref && part.inlineData) {
    const data = await bytesOf(ref);
    const { mimeType = 'application/octet-stream' } = part.inlineData;
    return [data === undefined ? { text: missingNote(mimeType) } : { inlineData: { mimeType, data } }];
  }
  const fr = part.functionResponse;
  if (!fr?.parts) return [part];
  const notes: string[] = [];
  const nested = [];
  for (const inner of fr.parts) {
    const innerRef = storedRefOf(inner.inlineData?.data);
    const data = innerRef === undefined ? undefined : await bytesOf(innerRef);
    if (!innerRef || !inner.inlineData) nested.push(inner);
    else if (data === undefined) notes.push(missingNote(inner.inlineData.mimeType ?? 'unknown type'));
    else nested.push({ inlineData: { ...inner.inlineData, data } });
  }
  const response = notes.length > 0 ? withNotes(fr.response ?? {}, notes) : fr.response;
  return [{ functionResponse: { ...fr, response, parts: nested } }];
}

function withNotes(response: Record<string, unknown>, notes: string[]): Record<string, unknown> {
  const output = typeof response.output === 'string' ? `${response.output}\n` : '';
  return { ...response, output: `${output}${notes.join('\n')}` };
}
