import { readFile } from 'node:fs/promises';
import { z } from 'zod';

/**
 * Gemini CLI's `--fake-responses` JSON Lines format: one line per model API call, consumed by the
 * fake Gemini server. `response` holds GenerateContentResponse JSON as recorded by Gemini CLI
 * (`candidates`, `usageMetadata`). The extensions `error`, `delayMs` and `dropAfterChunks` are ours.
 */

const responseJson = z.record(z.string(), z.unknown());

const scriptErrorSchema = z.strictObject({
  code: z.number().int().min(400).max(599),
  status: z.string(),
  message: z.string(),
  /** Google's error details, e.g. a `RetryInfo` with its `retryDelay` on a 429. */
  details: z.array(responseJson).optional(),
});

const extras = {
  /** Answer with this HTTP status and Google error body instead of `response`. */
  error: scriptErrorSchema.optional(),
  /** Wait this long before answering; for streams, before each chunk. */
  delayMs: z.number().int().nonnegative().optional(),
};

const lineSchema = z
  .discriminatedUnion('method', [
    z.strictObject({
      method: z.literal('generateContentStream'),
      response: z.array(responseJson).optional(),
      /** Send this many chunks, then destroy the socket (a connection cut mid-response). */
      dropAfterChunks: z.number().int().nonnegative().optional(),
      ...extras,
    }),
    z.strictObject({ method: z.literal('generateContent'), response: responseJson.optional(), ...extras }),
    z.strictObject({ method: z.literal('countTokens'), response: responseJson.optional(), ...extras }),
  ])
  .refine((line) => line.response !== undefined || line.error !== undefined, {
    message: 'a line needs "response" or "error"',
  });

export type ScriptLine = z.infer<typeof lineSchema>;
export type ScriptMethod = ScriptLine['method'];
export type ScriptError = z.infer<typeof scriptErrorSchema>;
/** GenerateContentResponse (or CountTokensResponse) JSON as it goes over the wire. */
export type ResponseJson = z.infer<typeof responseJson>;

/** A script line that failed to parse; `line` is 1-based in the source text. */
export class ScriptParseError extends Error {
  constructor(
    readonly source: string,
    readonly line: number,
    detail: string,
  ) {
    super(`${source} line ${line}: ${detail}`);
    this.name = 'ScriptParseError';
  }
}

/** Parses JSON Lines text; blank lines are skipped. Throws ScriptParseError naming the line. */
export function parseScript(text: string, source = 'script'): ScriptLine[] {
  const lines: ScriptLine[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    if (raw.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (err) {
      throw new ScriptParseError(source, index + 1, `invalid JSON: ${(err as Error).message}`);
    }
    const parsed = lineSchema.safeParse(json);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(line)'}: ${i.message}`);
      throw new ScriptParseError(source, index + 1, issues.join('; '));
    }
    lines.push(parsed.data);
  });
  return lines;
}

export async function loadScriptFile(path: string): Promise<ScriptLine[]> {
  return parseScript(await readFile(path, 'utf8'), path);
}

/** Serializes lines back to the JSON Lines format (newline-terminated). */
export function toJsonl(lines: ScriptLine[]): string {
  return lines.map((line) => `${JSON.stringify(line)}\n`).join('');
}

/** Options shared by the line helpers below. */
export interface LineOptions {
  delayMs?: number;
  dropAfterChunks?: number;
}

export function streamLine(chunks: ResponseJson[], opts: LineOptions = {}): ScriptLine {
  return { method: 'generateContentStream', response: chunks, ...opts };
}

export function errorLine(
  code: number,
  status: string,
  message: string,
  method: ScriptMethod = 'generateContentStream',
): ScriptLine {
  return { method, error: { code, status, message } };
}

/** A stream line whose single chunk is `text`, finished with STOP. */
export function textResponse(text: string, opts: LineOptions = {}): ScriptLine {
  return streamLine([finalChunk([{ text }], Math.ceil(text.length / 4))], opts);
}

export interface FunctionCallSpec {
  name: string;
  args?: Record<string, unknown>;
}

/** A stream line whose single chunk calls the given functions (without ids, as Gemini does). */
export function functionCallResponse(calls: FunctionCallSpec | FunctionCallSpec[], opts: LineOptions = {}): ScriptLine {
  const parts = [calls].flat().map(({ name, args }) => ({ functionCall: { name, args: args ?? {} } }));
  return streamLine([finalChunk(parts, 5 * parts.length)], opts);
}

/** What grounds a web tool's answer: Google Search results or the pages URL context read. */
export interface AnswerMetadata {
  groundingMetadata?: ResponseJson;
  urlContextMetadata?: ResponseJson;
}

/**
 * A `generateContent` line answering `text` with the metadata Gemini puts on the candidate of a
 * grounded call (`google_web_search`'s `groundingMetadata`, `web_fetch`'s `urlContextMetadata`).
 */
export function groundedResponse(text: string, metadata: AnswerMetadata = {}): ScriptLine {
  const chunk = finalChunk(text === '' ? [] : [{ text }], Math.ceil(text.length / 4));
  const [candidate] = chunk.candidates as ResponseJson[];
  return { method: 'generateContent', response: { ...chunk, candidates: [{ ...candidate, ...metadata }] } };
}

function finalChunk(parts: ResponseJson[], candidatesTokenCount: number): ResponseJson {
  const promptTokenCount = 10;
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: {
      promptTokenCount,
      candidatesTokenCount,
      totalTokenCount: promptTokenCount + candidatesTokenCount,
    },
  };
}
