import { SESSION_CONTEXT_TAG } from '../../src/activities/session-context';
import { UNTRUSTED_CLOSE, untrustedOpen, type UntrustedSource } from '../../src/core/untrusted';

/** A message's parts without the environment part the first message of a conversation starts with. */
export function withoutSessionContext<P extends { text?: string }>(parts: P[]): P[] {
  return parts.filter((part) => !part.text?.startsWith(`<${SESSION_CONTEXT_TAG}>`));
}

/** The text inside an untrusted-data fence from `source`; throws when the text is not fenced so. */
export function unfenced(text: string | undefined, source: UntrustedSource): string | undefined {
  if (text === undefined) return undefined;
  const open = `${untrustedOpen(source)}\n`;
  if (!text.startsWith(open) || !text.endsWith(`\n${UNTRUSTED_CLOSE}`))
    throw new Error(`not fenced as ${source}: ${text}`);
  return text.slice(open.length, -UNTRUSTED_CLOSE.length - 1);
}
