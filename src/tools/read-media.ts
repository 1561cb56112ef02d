import { SUPPORTED_AUDIO_FORMATS, travelsAlone, type MediaType } from '../core/media';
import { ToolError, type ToolResult } from './types';

/** An audio file in a format Gemini does not take: refused with the formats it does. */
export function unsupportedAudio(shown: string): never {
  throw new ToolError(
    'execution_failed',
    `${shown} is audio in a format the model cannot take. read_file sends audio as ${SUPPORTED_AUDIO_FORMATS}.`,
  );
}

/**
 * An image, PDF, audio or video file as `read_file`'s answer: a line for the model and the bytes, which
 * the tool activity stores and the model receives as inline data with its MIME type.
 */
export function mediaResult(shown: string, type: MediaType, bytes: Buffer): ToolResult {
  if (bytes.length === 0) {
    throw new ToolError('execution_failed', `${shown} is an empty ${type.kind} file: there is nothing to show.`);
  }
  const where = travelsAlone(type.mimeType)
    ? 'it follows in the next message as inline data'
    : 'it is attached to this result as inline data';
  return {
    ok: true,
    output: `Read ${type.kind} file ${shown} (${type.mimeType}, ${bytes.length} bytes): ${where}.`,
    display: `Read ${type.kind} file: ${shown}`,
    media: { mimeType: type.mimeType, base64: bytes.toString('base64'), path: shown },
  };
}
