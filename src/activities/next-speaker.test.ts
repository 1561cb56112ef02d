import { ApiError, type Content } from '@google/genai';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { fakeModel } from '../../test/fakes/fake-json-model';
import { quietActivityEnv, useTempStore } from '../../test/helpers/activity-harness';
import type { JsonModelSeam } from '../model/seam';
import { checkNextSpeaker, CONTINUE_TEXT, NEXT_SPEAKER_JSON_SCHEMA, type NextSpeakerInput } from './next-speaker';

const tmp = useTempStore('da-next-speaker-');

const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });
const model = (text: string): Content => ({ role: 'model', parts: [{ text }] });
const toolResult: Content = {
  role: 'user',
  parts: [{ functionResponse: { id: 'c1', name: 'ls', response: { output: 'a' } } }],
};

const quietEnv = (attempt = 1) => quietActivityEnv({ attempt });

function run(models: JsonModelSeam, input: Partial<NextSpeakerInput> & { length: number }, env = quietEnv()) {
  return env.run(
    checkNextSpeaker,
    { models, store: tmp.store },
    { transcriptId: 'tx', model: 'judge-flash', ...input },
  );
}

const answer = (next: string) => JSON.stringify({ reasoning: 'It said what it does next.', next_speaker: next });

describe('checkNextSpeaker', () => {
  it('exports Gemini CLI continuation text', () => {
    expect(CONTINUE_TEXT).toBe('Please continue.');
  });

  it.each([
    ['an empty transcript', [], 'user'],
    ['tool results last', [user('go'), model('Listing.'), toolResult], 'model'],
    ['an empty model turn last', [user('go'), { role: 'model', parts: [] }], 'model'],
    ['a user message last', [user('go')], 'user'],
  ] as [string, Content[], string][])('decides %s without a model call', async (_name, history, next) => {
    const fake = fakeModel([]);
    const result = await run(fake.models, { length: await tmp.writeTranscript(history) });
    expect(result).toMatchObject({ next, asked: false });
    expect(fake.requests).toHaveLength(0);
  });

  it('otherwise asks the model once, with the curated history, the check and the JSON schema', async () => {
    const history = [user('fix it'), model('Next, I will run the tests.')];
    const fake = fakeModel([answer('model')]);
    const result = await run(fake.models, { length: await tmp.writeTranscript(history) });
    expect(result).toEqual({ next: 'model', reasoning: 'It said what it does next.', asked: true });
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request.model).toBe('judge-flash');
    expect(request.config).toMatchObject({
      temperature: 1,
      responseMimeType: 'application/json',
      responseJsonSchema: NEXT_SPEAKER_JSON_SCHEMA,
    });
    const contents = request.contents;
    expect(contents.slice(0, 2)).toEqual(history);
    expect(contents[2].role).toBe('user');
    expect(contents[2].parts?.[0].text).toMatch(/who should speak next/);
  });

  it('passes a "user" answer through, and unwraps a fenced answer', async () => {
    const length = await tmp.writeTranscript([user('hi'), model('Anything else?')]);
    const fake = fakeModel(['```json\n' + answer('user') + '\n```']);
    expect(await run(fake.models, { length })).toMatchObject({ next: 'user', asked: true });
  });

  it.each([
    ['malformed JSON', 'not json {'],
    ['an empty answer', ''],
    ['a wrong next_speaker', answer('assistant')],
    ['a missing next_speaker', JSON.stringify({ reasoning: 'x' })],
  ])('treats %s as "user" after exactly 1 call', async (_name, text) => {
    const length = await tmp.writeTranscript([user('hi'), model('Working on it')]);
    const fake = fakeModel([text]);
    expect(await run(fake.models, { length })).toMatchObject({ next: 'user', asked: true });
    expect(fake.requests).toHaveLength(1);
  });

  it.each([
    ['a 429', new ApiError({ message: 'quota', status: 429 })],
    ['a 400', new ApiError({ message: 'bad', status: 400 })],
    ['a network error', Object.assign(new Error('fetch failed'), { code: 'ECONNRESET' })],
  ])('treats %s as "user" and does not throw', async (_name, error) => {
    const length = await tmp.writeTranscript([user('hi'), model('Working on it')]);
    const fake = fakeModel([error]);
    expect(await run(fake.models, { length })).toMatchObject({ next: 'user' });
    expect(fake.requests).toHaveLength(1);
  });

  it(
    'with attempts left (maxAttempts), fails retryably on a 429 or a JSON-less answer, as Gemini CLI ' + 'retries',
    async () => {
      const length = await tmp.writeTranscript([user('hi'), model('Working on it')]);
      const err = await run(fakeModel([new ApiError({ message: 'quota', status: 429 })]).models, {
        length,
        maxAttempts: 3,
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApplicationFailure);
      expect(err).toMatchObject({ type: 'ModelCall.RateLimit', nonRetryable: false });
      const noJson = await run(fakeModel(['hmm']).models, { length, maxAttempts: 3 }).catch((e: unknown) => e);
      expect(noJson).toMatchObject({ type: 'ModelCall.InvalidResponse' });
      expect(await run(fakeModel(['hmm']).models, { length, maxAttempts: 3 }, quietEnv(3))).toMatchObject({
        next: 'user',
      });
    },
  );

  it('throws on cancellation', async () => {
    const length = await tmp.writeTranscript([user('hi'), model('Working on it')]);
    const env = quietEnv();
    const models: JsonModelSeam = {
      async generateContent() {
        env.cancel();
        throw new Error('aborted');
      },
    };
    await expect(run(models, { length }, env)).rejects.toBeInstanceOf(CancelledFailure);
  });
});
