/**
 * Files `read_file` sends to the model as inline data rather than text: images, PDFs, audio and
 * video, recognised by extension as Gemini CLI 0.61.0 recognises them. The bytes never cross the
 * workflow: the tool activity stores them, and the transcript and the workflow carry only a
 * reference that the model activity turns back into `inlineData` when it builds a request.
 */

export type MediaKind = 'image' | 'pdf' | 'audio' | 'video';

export interface MediaType {
  kind: MediaKind;
  mimeType: string;
}

const IMAGES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  ico: 'image/vnd.microsoft.icon',
  heic: 'image/heic',
  heif: 'image/heif',
  avif: 'image/avif',
};

/** The audio formats Gemini accepts; other audio files are refused with this list. */
const AUDIO: Record<string, string> = {
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  aiff: 'audio/aiff',
  aif: 'audio/aiff',
  aac: 'audio/aac',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
};

export const SUPPORTED_AUDIO_FORMATS = 'MP3, WAV, AIFF, AAC, OGG and FLAC';

/** Audio extensions with a MIME type of their own that Gemini does not take. */
const OTHER_AUDIO = new Set(['m4a', 'wma', 'opus', 'mid', 'midi', 'amr', 'weba']);

const VIDEO: Record<string, string> = {
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mpeg: 'video/mpeg',
  mpg: 'video/mpeg',
  mov: 'video/quicktime',
  avi: 'video/x-msvideo',
  webm: 'video/webm',
  wmv: 'video/x-ms-wmv',
  flv: 'video/x-flv',
  '3gp': 'video/3gpp',
};

/**
 * What kind of media a path names, by its extension (case-insensitive); undefined for everything
 * read as text (`.svg` included: it is XML). An audio extension Gemini does not take is `unsupported`.
 */
export function mediaTypeOf(path: string): MediaType | 'unsupported_audio' | undefined {
  const match = /\.([^./\\]+)$/.exec(path);
  const ext = match?.[1].toLowerCase();
  if (!ext) return undefined;
  if (IMAGES[ext]) return { kind: 'image', mimeType: IMAGES[ext] };
  if (ext === 'pdf') return { kind: 'pdf', mimeType: 'application/pdf' };
  if (AUDIO[ext]) return { kind: 'audio', mimeType: AUDIO[ext] };
  if (VIDEO[ext]) return { kind: 'video', mimeType: VIDEO[ext] };
  return OTHER_AUDIO.has(ext) ? 'unsupported_audio' : undefined;
}

/** Audio and video cannot travel inside a function response: they follow it in a user message of their own. */
export function travelsAlone(mimeType: string): boolean {
  return mimeType.startsWith('audio/') || mimeType.startsWith('video/');
}

/**
 * A stored file as the tool's response carries it, under `MEDIA_KEY`: the model activity removes the
 * key and sends the bytes as `inlineData` beside or inside the function response.
 */
export interface StoredMedia {
  mimeType: string;
  /** Transcript-store reference of the base64 bytes. */
  ref: string;
  /** Workspace-relative path, for messages about the file. */
  path: string;
}

export const MEDIA_KEY = '$media';

/**
 * `inlineData.data` of a part in the transcript: the reference, after a prefix no base64 text has
 * (`:` is not a base64 character), so a stored part can never be mistaken for real bytes.
 */
const STORED_PREFIX = 'stored-media:';

export function storedData(ref: string): string {
  return `${STORED_PREFIX}${ref}`;
}

/** The store reference a transcript part's `inlineData.data` stands for, or undefined for real bytes. */
export function storedRefOf(data: string | undefined): string | undefined {
  return data?.startsWith(STORED_PREFIX) ? data.slice(STORED_PREFIX.length) : undefined;
}

/**
 * An image sent with a session message (an editor's pasted image): its base64 bytes are in the
 * transcript store under `ref`, and the prompt's first user message carries it as a stored reference.
 */
export interface MessageMedia {
  ref: string;
  mimeType: string;
}

/** The response's stored media, if it has any in the expected shape (older responses have none). */
export function mediaOf(response: Record<string, unknown>): StoredMedia | undefined {
  const media = response[MEDIA_KEY] as Partial<StoredMedia> | undefined;
  if (!media || typeof media !== 'object') return undefined;
  const { mimeType, ref, path } = media;
  if (typeof mimeType !== 'string' || typeof ref !== 'string') return undefined;
  return { mimeType, ref, path: typeof path === 'string' ? path : 'the file' };
}

/** The image types the Gemini API takes, for images sent with a message. */
export const MESSAGE_IMAGE_TYPES: readonly string[] = [
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/heic',
  'image/heif',
];

/** The most an image sent with a message may weigh, decoded: Gemini's limit on inline data in a request. */
export const MAX_MESSAGE_IMAGE_BYTES = 20 * 1024 * 1024;

/** Why a message's `media` is not a list of stored images of a type Gemini takes; undefined when it is (or absent). */
export function mediaProblem(media: unknown): string | undefined {
  if (media === undefined) return undefined;
  if (!Array.isArray(media)) return 'a message’s media must be a list of {ref, mimeType}';
  for (const item of media as Partial<MessageMedia>[]) {
    if (typeof item?.ref !== 'string' || !/^sha256:[0-9a-f]{64}$/.test(item.ref))
      return 'a message’s media needs the store reference of each image';
    if (typeof item.mimeType !== 'string' || !MESSAGE_IMAGE_TYPES.includes(item.mimeType))
      return `image type ${String(item.mimeType)} is not supported: send ${MESSAGE_IMAGE_TYPES.join(', ')}`;
  }
  return undefined;
}
