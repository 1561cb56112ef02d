/**
 * An ACP prompt's content blocks as our next message: text as it is, a link to a file as an `@path`
 * reference (the prompt reads it, as `@path` typed in the CLI), an embedded resource's text inline
 * under its URI, and images beside the text (checked here: a type Gemini takes, real base64, at most
 * Gemini's inline limit). Audio is not offered (initialize says so) and is refused.
 */
import { fileURLToPath } from 'node:url';
import type { ContentBlock } from '@agentclientprotocol/sdk';
import { MAX_MESSAGE_IMAGE_BYTES, MESSAGE_IMAGE_TYPES } from '../core/media';

export class UnsupportedContentError extends Error {}

/** An image of the prompt, checked, its bytes still base64. */
export interface PromptImage {
  mimeType: string;
  data: string;
}

export interface PromptContent {
  text: string;
  images: PromptImage[];
}

export function promptContent(blocks: readonly ContentBlock[]): PromptContent {
  const images: PromptImage[] = [];
  const text = blocks
    .map((block, index) => {
      if (block.type !== 'image') return blockText(block);
      images.push(checkedImage(block.mimeType, block.data, index));
      return '';
    })
    .join('');
  if (images.length > 0 && !text.trim())
    throw new UnsupportedContentError('an image needs text beside it: say what to do');
  return { text, images };
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function checkedImage(mimeType: unknown, data: unknown, index: number): PromptImage {
  const at = `image (content block ${index})`;
  if (typeof mimeType !== 'string' || !MESSAGE_IMAGE_TYPES.includes(mimeType.toLowerCase()))
    throw new UnsupportedContentError(
      `${at}: type ${String(mimeType)} is not supported: send ${MESSAGE_IMAGE_TYPES.join(', ')}`,
    );
  if (typeof data !== 'string' || data === '' || data.length % 4 !== 0 || !BASE64.test(data))
    throw new UnsupportedContentError(`${at}: data is not base64`);
  const bytes = (data.length / 4) * 3 - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
  if (bytes > MAX_MESSAGE_IMAGE_BYTES)
    throw new UnsupportedContentError(`${at}: ${bytes} bytes, over the ${MAX_MESSAGE_IMAGE_BYTES / 2 ** 20} MB limit`);
  return { mimeType: mimeType.toLowerCase(), data };
}

function blockText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'resource_link':
      return block.uri.startsWith('file:') ? ` @${fileURLToPath(block.uri)} ` : ` ${block.uri} `;
    case 'resource':
      if ('text' in block.resource)
        return `\n\nContent of ${block.resource.uri}:\n\`\`\`\n${block.resource.text}\n\`\`\`\n`;
      throw new UnsupportedContentError(`binary resource ${block.resource.uri}: only text resources are read`);
    default:
      throw new UnsupportedContentError(`${block.type} content is not supported: send text, resources or images`);
  }
}

/** The message a prompt sends: `//text` is the escape for a message that starts with `/`, sent as `/text`. */
export function messageOf(text: string): string {
  return text.replace(/^(\s*)\/\//, '$1/');
}
