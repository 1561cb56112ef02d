/** Gemini CLI's threshold for tool output shown to the model (`truncateToolOutputThreshold`). */
export const DEFAULT_MAX_OUTPUT_CHARS = 40_000;

/** Share of the kept characters taken from the start; the rest comes from the end. */
const HEAD_SHARE = 0.2;
/** Room kept for the note, so a truncated text stays within the limit and truncating is idempotent. */
const NOTE_RESERVE = 400;

/** How `maxChars` splits into kept head and tail characters (20% / 80%, as Gemini CLI does). */
export function headTailSizes(maxChars: number): { head: number; tail: number } {
  const kept = Math.max(0, maxChars - NOTE_RESERVE);
  const head = Math.floor(kept * HEAD_SHARE);
  return { head, tail: kept - head };
}

/** Joins a kept head and tail around a note that tells the model how much was cut. */
export function joinTruncated(head: string, tail: string, omittedChars: number): string {
  const count = (n: number) => n.toLocaleString('en-US');
  const total = head.length + tail.length + omittedChars;
  return (
    `${head}\n\n[... ${count(omittedChars)} of ${count(total)} characters were cut from the middle here; ` +
    `the first ${count(head.length)} and the last ${count(tail.length)} are shown. To see the cut part, ` +
    `narrow the request or filter the output (for example with grep, head or tail). ...]\n\n${tail}`
  );
}

/**
 * Keeps at most `maxChars` characters of `text`: the first 20% and the last 80% of what fits, with
 * a note in between. Text within the limit is returned unchanged, and so is an already truncated text.
 */
export function truncateOutput(text: string, maxChars = DEFAULT_MAX_OUTPUT_CHARS): string {
  if (text.length <= maxChars) return text;
  const { head, tail } = headTailSizes(maxChars);
  const omitted = text.length - head - tail;
  return joinTruncated(text.slice(0, head), tail > 0 ? text.slice(-tail) : '', omitted);
}
