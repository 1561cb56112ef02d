/**
 * An ACP prompt's content blocks as the text of our next message: text as it is, a link to a file
 * as an `@path` reference (the prompt reads it, as `@path` typed in the CLI), an embedded resource's
 * text inline under its URI. Images and audio are not offered (initialize says so) and are refused.
 */
import { fileURLToPath } from 'node:url';
import type { ContentBlock } from '@agentclientprotocol/sdk';

export class UnsupportedContentError extends Error {}

export function promptText(blocks: readonly ContentBlock[]): string {
  return blocks.map(blockText).join('');
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
      throw new UnsupportedContentError(`${block.type} content is not supported: send text or resources`);
  }
}

/** The message a prompt sends: `//text` is the escape for a message that starts with `/`, sent as `/text`. */
export function messageOf(text: string): string {
  return text.replace(/^(\s*)\/\//, '$1/');
}
