import type { Content, Part } from '@google/genai';
import { MEDIA_KEY, mediaOf, storedData, travelsAlone } from '../core/media';
import { nestsMediaInResponse } from '../core/models';
import type { NewPart } from '../core/types';
import type { TranscriptStore } from '../store/types';
import { MEDIA_FOLLOWS } from './media-parts';
import { sessionContextPart } from './session-context';

/**
 * The new user message as it goes into the transcript. Files a tool read as media appear as
 * `inlineData` whose data is a store reference (see core/media); the request expands it.
 */
export interface UserMessage {
  parts: Part[];
  /** Audio and video a tool read: a user message of their own, after the function responses. */
  alone: Part[];
}

/** What the model activity's input says about the new user message. */
export interface NewMessageInput {
  transcriptId: string;
  baseLength: number;
  append: NewPart[];
  model: string;
  workspace: string;
  /** Set for a sub-agent, whose first message is its task as it was given. */
  systemPrompt?: string;
}

/** Builds the user message, reading long texts and large function responses from the store. */
export async function toUserMessage(append: NewPart[], store: TranscriptStore, model: string): Promise<UserMessage> {
  const alone: Part[] = [];
  const built = await Promise.all(
    append.map(async (part): Promise<Part[]> => {
      if (part.kind === 'text') return [{ text: part.textRef ? await store.getBlob(part.textRef) : part.text }];
      if (part.kind === 'media') return [{ inlineData: { mimeType: part.mimeType, data: storedData(part.ref) } }];
      const stored = part.responseRef
        ? (JSON.parse(await store.getBlob(part.responseRef)) as Record<string, unknown>)
        : (part.response ?? {});
      const response = { ...stored };
      delete response[MEDIA_KEY];
      const functionResponse = { id: part.callId, name: part.name, response };
      const media = mediaOf(stored);
      if (!media) return [{ functionResponse }];
      const inline = { inlineData: { mimeType: media.mimeType, data: storedData(media.ref) } };
      if (travelsAlone(media.mimeType)) {
        alone.push(inline);
        return [{ functionResponse }];
      }
      // Gemini 3 takes the file inside the response; older models beside it, in the same message.
      if (nestsMediaInResponse(model)) return [{ functionResponse: { ...functionResponse, parts: [inline] } }];
      return [{ functionResponse }, inline];
    }),
  );
  return { parts: built.flat(), alone };
}

/** The user message's parts, media that travels alone included (for estimates). */
export async function toParts(append: NewPart[], store: TranscriptStore, model = ''): Promise<Part[]> {
  const { parts, alone } = await toUserMessage(append, store, model);
  return [...parts, ...alone];
}

/** Writes the new user messages after the transcript's first `baseLength` ones; returns the new length. */
export async function appendUserMessages(
  store: TranscriptStore,
  input: NewMessageInput,
  contents: Content[],
  attempt: number,
): Promise<number> {
  if (input.append.length === 0) return input.baseLength;
  for (const message of await userMessages(input, store)) {
    await store.writeMessage(input.transcriptId, contents.length, message, attempt);
    contents.push(message);
  }
  return contents.length;
}

/**
 * The new user message, and after it, when a tool read audio or video, a short model turn and a user
 * message holding the file. A main conversation's first message starts with the environment and
 * folder tree, as Gemini CLI's does; a sub-agent's task is its first message as it was given.
 */
async function userMessages(input: NewMessageInput, store: TranscriptStore): Promise<Content[]> {
  const { parts, alone } = await toUserMessage(input.append, store, input.model);
  const first = input.baseLength === 0 && input.systemPrompt === undefined;
  const message: Content = {
    role: 'user',
    parts: first ? [await sessionContextPart(input.workspace), ...parts] : parts,
  };
  return alone.length > 0 ? [message, MEDIA_FOLLOWS, { role: 'user', parts: alone }] : [message];
}
