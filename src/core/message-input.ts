import type { z } from 'zod';
import { describeIssues } from './confirmation';

/**
 * What a workflow takes from a signal or update: anyone who reaches the server can send one, with any
 * payload, from any SDK or the stock CLI. The payload is weighed and checked before any of it is kept
 * or echoed; a refusal names the handler and says why in at most a few hundred characters.
 */

/** The most a signal or update payload may weigh (JSON bytes), as the client's own limit. */
export const MAX_PAYLOAD_BYTES = 256 * 1024;
/** The most of any outside string a warning, a rejection or a log line repeats. */
export const MAX_ECHO_CHARS = 120;
/** Set by the payload converter on a payload it could not decode, instead of failing the workflow task. */
export const UNDECODABLE_KEY = '$undecodable';

/** `text` whole when short, otherwise its start and how long it was: one helper for every echo of input. */
export function echo(text: string, max = MAX_ECHO_CHARS): string {
  const oneLine = text.replace(/[\r\n]+/g, ' ');
  if (oneLine.length <= max) return oneLine;
  return `${oneLine.slice(0, max)}… (${text.length} characters)`;
}

/** Why a payload cannot be taken before its shape is even looked at, or undefined. */
export function payloadProblem(payload: unknown): string | undefined {
  if (payload !== null && typeof payload === 'object' && UNDECODABLE_KEY in payload)
    return `the payload could not be decoded (${echo(String((payload as Record<string, unknown>)[UNDECODABLE_KEY]))})`;
  let bytes: number;
  try {
    bytes = new TextEncoder().encode(JSON.stringify(payload) ?? 'null').length;
  } catch {
    return 'the payload is not plain JSON data';
  }
  if (bytes > MAX_PAYLOAD_BYTES) return `the payload is ${bytes} bytes, over the limit of ${MAX_PAYLOAD_BYTES}`;
  return undefined;
}

/** The payload weighed, then parsed with `schema`; the reason is capped and starts with the handler's name. */
export function checkPayload<T>(
  name: string,
  schema: z.ZodType<T>,
  payload: unknown,
): { ok: true; value: T } | { ok: false; reason: string } {
  const problem = payloadProblem(payload);
  if (problem) return { ok: false, reason: `${name} ignored: ${problem}` };
  const parsed = schema.safeParse(payload);
  if (!parsed.success) return { ok: false, reason: `${name} ignored: ${echo(describeIssues(parsed.error), 300)}` };
  return { ok: true, value: parsed.data };
}
