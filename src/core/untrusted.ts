/**
 * The fence around text that comes from outside the conversation (command output, web pages, MCP
 * results, hook context). The system prompt tells the model that what is inside is data to weigh,
 * never instructions to follow; this module is the one place the tag is spelled, so the prompt, the
 * tools and the tests agree on it.
 */
export const UNTRUSTED_TAG = 'external_data';

/** Where fenced text came from, named in the fence's `source` attribute. */
export type UntrustedSource = 'shell' | 'web' | 'mcp' | 'hook';

/** `<external_data source="…">`: the start of a fenced block. */
export function untrustedOpen(source: UntrustedSource): string {
  return `<${UNTRUSTED_TAG} source="${source}">`;
}

export const UNTRUSTED_CLOSE = `</${UNTRUSTED_TAG}>`;

const CLOSE_INSIDE = new RegExp(`</(\\s*)${UNTRUSTED_TAG}`, 'gi');

/**
 * The text inside a fence. A closing tag within the text is escaped, so outside text cannot end the
 * fence early and pass the rest off as the agent's own words.
 */
export function fenceUntrusted(source: UntrustedSource, text: string): string {
  const escaped = text.replace(CLOSE_INSIDE, `&lt;/$1${UNTRUSTED_TAG}`);
  return `${untrustedOpen(source)}\n${escaped}\n${UNTRUSTED_CLOSE}`;
}

const FENCE_MARK = new RegExp(`<${UNTRUSTED_TAG} source="[a-z]+">\\n?|\\n?</${UNTRUSTED_TAG}>`, 'g');

/**
 * Fenced text as a person reads it in a one-line preview: the fence is for the model, and the user
 * wants to see the command's output there, not the tag around it.
 */
export function withoutFences(text: string): string {
  return text.replace(FENCE_MARK, '');
}
