import { ApiError, type GenerateContentParameters, type GenerateContentResponse } from '@google/genai';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import type { StreamChunk } from '../core/assemble-turn';
import { MODEL_ERROR_TYPES } from '../core/failures';
import { MID_STREAM_RETRY, RETRY_NUDGES } from '../core/stream-validation';
import { streamValidTurn, withNudge } from './model-stream';
import type { StreamSeam } from '../model/seam';

/** One scripted attempt: chunks to stream, then optionally an error that breaks the stream. */
interface ScriptedAttempt {
  chunks?: StreamChunk[];
  breakWith?: Error;
  /** Thrown by the request itself, before any stream exists. */
  reject?: Error;
}

/** A scripted seam, strict about extra calls; records each request's system instruction. */
function fakeModel(script: ScriptedAttempt[]) {
  const systemInstructions: unknown[] = [];
  const models: StreamSeam = {
    async generateContentStream(req: GenerateContentParameters) {
      systemInstructions.push(req.config?.systemInstruction);
      const next = script.shift();
      if (next === undefined) throw new Error(`unexpected model call #${systemInstructions.length}`);
      if (next.reject) throw next.reject;
      return (async function* () {
        for (const chunk of next.chunks ?? []) yield chunk as GenerateContentResponse;
        if (next.breakWith) throw next.breakWith;
      })();
    },
  };
  return { models, systemInstructions, calls: () => systemInstructions.length, leftover: () => script.length };
}

const text = (t: string, finishReason?: string): StreamChunk => ({
  candidates: [{ content: { parts: [{ text: t }] }, finishReason }],
});
const thought = (t: string): StreamChunk => ({ candidates: [{ content: { parts: [{ text: t, thought: true }] } }] });
const good: ScriptedAttempt = { chunks: [text('Hello'), text(' world', 'STOP')] };
const networkError = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });

const SYSTEM = 'You are a coding agent.';
const request: GenerateContentParameters = {
  model: 'm',
  contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
  config: { systemInstruction: SYSTEM },
};

function run(script: ScriptedAttempt[], requestWasFunctionResponse = false, req = request) {
  const fake = fakeModel(script);
  const sleeps: number[] = [];
  const sleep = async (ms: number) => void sleeps.push(ms);
  const result = streamValidTurn({ models: fake.models, sleep }, req, 3, requestWasFunctionResponse);
  return { fake, sleeps, result };
}

async function failureOf(promise: Promise<unknown>): Promise<Error> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(Error);
  return err as Error;
}

describe('streamValidTurn', () => {
  it('returns a valid first stream after one call', async () => {
    const { fake, sleeps, result } = run([good]);
    expect((await result).text).toBe('Hello world');
    expect(fake.calls()).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('retries an empty stream once, after 1 s: 2 calls', async () => {
    const { fake, sleeps, result } = run([{ chunks: [] }, good]);
    expect((await result).text).toBe('Hello world');
    expect(fake.calls()).toBe(2);
    expect(sleeps).toEqual([1000]);
    // An empty stream has no finish reason either: NO_FINISH_REASON is checked first and has no nudge.
    expect(fake.systemInstructions).toEqual([SYSTEM, SYSTEM]);
  });

  it('nudges the retry after an empty answer that did finish', async () => {
    const { fake, result } = run([{ chunks: [text('', 'STOP')] }, good]);
    await result;
    expect(fake.systemInstructions[0]).toBe(SYSTEM);
    expect(fake.systemInstructions[1]).toBe(`${SYSTEM}\n\n${RETRY_NUDGES.NO_RESPONSE_TEXT}`);
  });

  it('nudges the retry after a thoughts-only answer', async () => {
    const { fake, result } = run([{ chunks: [thought('**Plan** read the file'), text('', 'STOP')] }, good]);
    await result;
    expect(String(fake.systemInstructions[1])).toContain(RETRY_NUDGES.THINKING_ONLY_RESPONSE);
  });

  it('fails for good after exactly 4 streams without a finish reason, waiting 1 s, 2 s, 4 s', async () => {
    const noFinish = { chunks: [text('partial')] };
    const { fake, sleeps, result } = run([noFinish, noFinish, noFinish, noFinish, good]);
    const err = await failureOf(result);
    expect(err).toBeInstanceOf(ApplicationFailure);
    const details = [{ invalidStreamType: 'NO_FINISH_REASON' }];
    expect(err).toMatchObject({ type: MODEL_ERROR_TYPES.invalidStream, nonRetryable: true, details });
    expect(err.message).toMatch(/without a finish reason.*NO_FINISH_REASON/);
    expect(fake.calls()).toBe(MID_STREAM_RETRY.maxAttempts);
    expect(fake.leftover()).toBe(1);
    expect(sleeps).toEqual([1000, 2000, 4000]);
  });

  it('retries a MALFORMED_FUNCTION_CALL finish and returns the good turn', async () => {
    const { fake, result } = run([{ chunks: [text('', 'MALFORMED_FUNCTION_CALL')] }, good]);
    expect((await result).finishReason).toBe('STOP');
    expect(fake.calls()).toBe(2);
    expect(fake.systemInstructions[1]).toBe(SYSTEM);
  });

  it('retries a stream broken by a network error and keeps only the second attempt', async () => {
    const { fake, result } = run([{ chunks: [text('Hel')], breakWith: networkError() }, good]);
    const turn = await result;
    expect(fake.calls()).toBe(2);
    expect(turn.text).toBe('Hello world');
    expect(turn.historyParts).toEqual([{ text: 'Hello world' }]);
  });

  it("counts the usage of tries whose answers were dropped: an invalid answer's and a broken stream's", async () => {
    const usage = (input: number, output: number) => ({
      promptTokenCount: input,
      candidatesTokenCount: output,
      totalTokenCount: input + output,
    });
    const invalid = { chunks: [{ ...text('', 'MALFORMED_FUNCTION_CALL'), usageMetadata: usage(100, 7) }] };
    const broken = { chunks: [{ ...text('Hel'), usageMetadata: usage(100, 3) }], breakWith: networkError() };
    const unreported = { chunks: [text('Hel')], breakWith: networkError() };
    const last = { chunks: [text('Hello'), { ...text(' world', 'STOP'), usageMetadata: usage(100, 9) }] };
    const turn = await run([invalid, broken, unreported, last]).result;
    expect(turn.usage).toMatchObject({ input: 100, output: 9 });
    expect(turn.droppedTries).toEqual([
      { input: 100, output: 7, cached: 0, thoughts: 0, total: 107 },
      { input: 100, output: 3, cached: 0, thoughts: 0, total: 103 },
    ]);
    expect((await run([good]).result).droppedTries).toBeUndefined();
  });

  it('throws a connection-phase 400 at once, classified, after 1 call', async () => {
    const { fake, sleeps, result } = run([{ reject: new ApiError({ message: 'bad', status: 400 }) }, good]);
    const err = await failureOf(result);
    expect(err).toMatchObject({ type: 'ModelCall.BadRequest', nonRetryable: true });
    expect(fake.calls()).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('leaves a connection-phase 503 to Temporal: thrown retryable after 1 call', async () => {
    const { fake, result } = run([{ reject: new ApiError({ message: 'busy', status: 503 }) }, good]);
    expect(await failureOf(result)).toMatchObject({ type: 'ModelCall.ServerError', nonRetryable: false });
    expect(fake.calls()).toBe(1);
  });

  it('does not retry a non-retryable error met mid-stream', async () => {
    const { fake, result } = run([
      { chunks: [text('a')], breakWith: new ApiError({ message: 'no', status: 403 }) },
      good,
    ]);
    expect(await failureOf(result)).toMatchObject({ type: 'ModelCall.Auth', nonRetryable: true });
    expect(fake.calls()).toBe(1);
  });

  it('throws the last retryable error after 4 broken streams, for Temporal to retry', async () => {
    const broken = () => ({ chunks: [text('a')], breakWith: networkError() });
    const { fake, result } = run([broken(), broken(), broken(), broken()]);
    expect(await failureOf(result)).toMatchObject({ type: 'ModelCall.Network', nonRetryable: false });
    expect(fake.calls()).toBe(4);
  });

  it('never retries after cancellation', async () => {
    const controller = new AbortController();
    const cancelled = new CancelledFailure('CANCELLED');
    const req = { ...request, config: { ...request.config, abortSignal: controller.signal } };
    controller.abort(cancelled);
    const { fake, result } = run([{ chunks: [text('a')], breakWith: networkError() }, good], false, req);
    expect(await failureOf(result)).toBe(cancelled);
    expect(fake.calls()).toBe(1);
  });

  it('accepts an empty unfinished answer to function responses, as Gemini CLI does', async () => {
    const { fake, result } = run([{ chunks: [] }], true);
    expect((await result).text).toBe('');
    expect(fake.calls()).toBe(1);
  });

  it('accepts a function call without a finish reason', async () => {
    const callChunk: StreamChunk = {
      candidates: [{ content: { parts: [{ functionCall: { name: 'read_file', args: { file_path: 'a' } } }] } }],
    };
    const { fake, result } = run([{ chunks: [callChunk] }]);
    expect((await result).functionCalls).toEqual([{ id: 'call_3_0', name: 'read_file', args: { file_path: 'a' } }]);
    expect(fake.calls()).toBe(1);
  });
});

describe('withNudge', () => {
  const nudged = (systemInstruction: GenerateContentParameters['config']) =>
    withNudge({ model: 'm', contents: [], config: systemInstruction }, 'N').config?.systemInstruction;

  it('appends to a string, a Content, a part list, or nothing, and leaves the request alone without a nudge', () => {
    expect(nudged({ systemInstruction: 'S' })).toBe('S\n\nN');
    expect(nudged({ systemInstruction: { role: 'system', parts: [{ text: 'S' }] } })).toEqual({
      role: 'system',
      parts: [{ text: 'S' }, { text: 'N' }],
    });
    expect(nudged({ systemInstruction: ['S'] })).toEqual(['S', { text: 'N' }]);
    expect(nudged({})).toBe('N');
    expect(withNudge(request, undefined)).toBe(request);
  });
});

describe('the content-loop cut', () => {
  const chant = Array.from({ length: 40 }, () => text('I will now check the configuration file once more. '));
  const empty = { text: '', next: 0, inCodeBlock: false };

  it('stops reading at the loop, aborts the request and returns the partial turn unvalidated', async () => {
    let signal: AbortSignal | undefined;
    let read = 0;
    const models: StreamSeam = {
      async generateContentStream(req: GenerateContentParameters) {
        signal = req.config?.abortSignal;
        return (async function* () {
          for (const chunk of chant) {
            read += 1;
            yield chunk as GenerateContentResponse;
          }
        })();
      },
    };
    const turn = await streamValidTurn({ models, contentLoop: empty }, request, 1, false);
    expect(turn.loop).toMatchObject({ kind: 'content_loop' });
    expect(read).toBeLessThan(15);
    expect(turn.finishReason).toBeUndefined();
    expect(signal?.aborted).toBe(true);
  });

  it('reads everything when no tracking is given (detection off)', async () => {
    const { result } = run([{ chunks: [...chant, text('', 'STOP')] }]);
    const turn = await result;
    expect(turn.loop).toBeUndefined();
    expect(turn.text.length).toBe(40 * 51);
  });
});
