import { withoutFences } from '../core/untrusted';

/** How much of a tool's output travels in its result (and history) for people to see. */
const PREVIEW_CHARS = 300;

/** The start of a tool's output as the CLI, `watch` and the events show it: no fence tags, 300 characters. */
export function previewOf(output: string): string {
  const text = withoutFences(output);
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
}
