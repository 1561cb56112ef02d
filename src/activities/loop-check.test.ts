import { ApiError, type Content } from '@google/genai';
import type { LoopCheckResult } from '../core/loop/llm-schedule';
import { MODEL_ERROR_TYPES } from '../core/failures';
import { fakeModel } from '../../test/fakes/fake-json-model';
import { failureOf, quietActivityEnv, useTempStore } from '../../test/helpers/activity-harness';
import type { JsonModelSeam } from '../model/seam';
import { checkForLoop, LOOP_CHECK_JSON_SCHEMA, type LoopCheckInput } from './loop-check';

const tmp = useTempStore('da-loop-check-');

const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });
const model = (text: string): Content => ({ role: 'model', parts: [{ text }] });
const call = (name: string): Content => ({ role: 'model', parts: [{ functionCall: { id: name, name, args: {} } }] });
const response = (name: string): Content => ({
  role: 'user',
  parts: [{ functionResponse: { id: name, name, response: { output: 'ok' } } }],
});

function run(
  models: JsonModelSeam,
  input: Partial<LoopCheckInput> & { length: number },
  attempt = 1,
): Promise<LoopCheckResult> {
  return quietActivityEnv({ attempt }).run(
    checkForLoop,
    { models, store: tmp.store },
    { transcriptId: 'tx', model: 'loop-flash', ...input },
  );
}

const goodAnswer = JSON.stringify({
  unproductive_state_analysis: 'The same read, five times.',
  unproductive_state_confidence: 0.95,
});

describe('checkForLoop', () => {
  it('sends the last 20 messages, the JSON schema and the chosen model, and parses the answer', async () => {
    const history = Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? user(`question ${i}`) : model(`answer ${i}`)));
    const length = await tmp.writeTranscript(history);
    const fake = fakeModel([goodAnswer]);
    const result = await run(fake.models, { length, model: 'loop-pro', prompt: 'fix the build' });
    expect(result).toEqual({
      isLoop: true,
      confidence: 0.95,
      analysis: 'The same read, five times.',
      model: 'loop-pro',
      answered: true,
    });
    const [request] = fake.requests;
    expect(fake.requests).toHaveLength(1);
    expect(request.model).toBe('loop-pro');
    expect(request.config).toMatchObject({
      responseMimeType: 'application/json',
      responseJsonSchema: LOOP_CHECK_JSON_SCHEMA,
    });
    expect(String(request.config?.systemInstruction)).toMatch(/stuck/);
    const contents = request.contents;
    expect(contents[0]).toEqual(user('<original_user_request>\nfix the build\n</original_user_request>'));
    expect(contents.slice(1, -1)).toEqual(history.slice(10));
    expect(contents[contents.length - 1].role).toBe('user');
  });

  it('trims a trailing function call and leading function responses, as Gemini CLI does', async () => {
    const history = [
      user('start'),
      ...Array.from({ length: 10 }, (_, i) => [call(`c${i}`), response(`c${i}`)]).flat(),
      call('last'),
    ];
    const length = await tmp.writeTranscript(history);
    const fake = fakeModel([goodAnswer]);
    await run(fake.models, { length });
    const contents = fake.requests[0].contents;
    expect(contents[0]).toEqual(user('The most recent part of the conversation:'));
    // The last 20 are r0, c1, r1, …, c9, r9, last: `last` and then r0 go, and a call opens the rest.
    expect(contents.slice(1, -1)).toEqual(history.slice(3, -1));
  });

  it('a confidence below 0.9 is not a loop', async () => {
    const length = await tmp.writeTranscript([user('hi'), model('hello')]);
    const answer = JSON.stringify({ unproductive_state_analysis: 'Progressing.', unproductive_state_confidence: 0.4 });
    expect(await run(fakeModel([answer]).models, { length })).toMatchObject({
      isLoop: false,
      confidence: 0.4,
      answered: true,
    });
  });

  it.each([
    [
      'a string confidence',
      JSON.stringify({ unproductive_state_analysis: 'x', unproductive_state_confidence: '0.99' }),
    ],
    ['no confidence', JSON.stringify({ unproductive_state_analysis: 'x' })],
    ['an array', '[0.99]'],
    ['null', 'null'],
  ])('valid JSON with %s is no answer and not a loop, without asking again', async (_, text) => {
    const length = await tmp.writeTranscript([user('hi')]);
    const fake = fakeModel([text]);
    expect(await run(fake.models, { length })).toEqual({
      isLoop: false,
      confidence: 0,
      analysis: '',
      model: 'loop-flash',
      answered: false,
    });
    expect(fake.requests).toHaveLength(1);
  });

  it('reads a fenced answer, and a missing analysis as empty', async () => {
    const length = await tmp.writeTranscript([user('hi')]);
    const fenced = '```json\n{"unproductive_state_confidence": 1}\n```';
    expect(await run(fakeModel([fenced]).models, { length })).toMatchObject({
      isLoop: true,
      confidence: 1,
      analysis: '',
      answered: true,
    });
  });

  it('an answer without JSON fails retryably while attempts remain, and is no answer on the last', async () => {
    const length = await tmp.writeTranscript([user('hi')]);
    const failure = await failureOf(run(fakeModel(['I think it loops.']).models, { length }));
    expect(failure.type).toBe(MODEL_ERROR_TYPES.invalidResponse);
    expect(failure.nonRetryable).toBeFalsy();
    expect(await run(fakeModel(['']).models, { length }, 2)).toMatchObject({ isLoop: false, answered: false });
    expect(await run(fakeModel(['{not json']).models, { length, maxAttempts: 1 })).toMatchObject({
      isLoop: false,
      answered: false,
    });
  });

  it('turns an API 400 into a non-retryable failure, and a 503 into a retryable one', async () => {
    const length = await tmp.writeTranscript([user('hi')]);
    const bad = await failureOf(
      run(fakeModel([new ApiError({ message: 'Invalid argument', status: 400 })]).models, { length }),
    );
    expect(bad).toMatchObject({ type: MODEL_ERROR_TYPES.badRequest, nonRetryable: true });
    const busy = await failureOf(
      run(fakeModel([new ApiError({ message: 'overloaded', status: 503 })]).models, { length }),
    );
    expect(busy).toMatchObject({ type: MODEL_ERROR_TYPES.server, nonRetryable: false });
  });
});
