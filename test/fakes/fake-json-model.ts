/**
 * The scripted model fake for activity tests: one entry per call, in order, strict
 * about extra calls; every request is recorded as plain JSON. A string or a response answers
 * `generateContent`, a list of chunks answers `generateContentStream`, and an error is thrown by
 * the request.
 */
import {
  GenerateContentResponse,
  type Content,
  type GenerateContentConfig,
  type GenerateContentParameters,
} from '@google/genai';
import type { ModelSeam } from '../../src/model/seam';
import type { StreamChunk } from '../../src/core/assemble-turn';

export type ScriptedCall = string | GenerateContentResponse | StreamChunk[] | Error;

/** A request as the model received it (an abort signal records as `{}`); the activities send a `Content[]`. */
export interface RecordedRequest {
  model: string;
  contents: Content[];
  config?: GenerateContentConfig;
}

/** A non-streaming answer of one text part, after an optional thought part. */
export function textResponse(text: string, thought?: string): GenerateContentResponse {
  const parts = thought === undefined ? [{ text }] : [{ text: thought, thought: true }, { text }];
  return Object.assign(new GenerateContentResponse(), { candidates: [{ content: { role: 'model', parts } }] });
}

export function fakeModel(script: ScriptedCall[]) {
  const requests: RecordedRequest[] = [];
  function take(req: GenerateContentParameters): Exclude<ScriptedCall, Error> {
    requests.push(JSON.parse(JSON.stringify(req)) as RecordedRequest);
    const next = script.shift();
    if (next === undefined) throw new Error(`unexpected model call #${requests.length}`);
    if (next instanceof Error) throw next;
    return next;
  }
  const models: ModelSeam = {
    async generateContent(req) {
      const next = take(req);
      if (Array.isArray(next)) throw new Error(`model call #${requests.length} was scripted as a stream`);
      return typeof next === 'string' ? textResponse(next) : next;
    },
    async generateContentStream(req) {
      const next = take(req);
      if (!Array.isArray(next)) throw new Error(`model call #${requests.length} was scripted as a single answer`);
      return (async function* () {
        for (const chunk of next) yield chunk as GenerateContentResponse;
      })();
    },
  };
  return { models, requests, leftover: () => script.length };
}
