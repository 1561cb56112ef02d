import { ApiError, type Content } from '@google/genai';
import { fakeModel } from '../../test/fakes/fake-json-model';
import { quietActivityEnv, useTempStore } from '../../test/helpers/activity-harness';
import type { JsonModelSeam } from '../model/seam';
import { GEMINI_3 } from '../core/models';
import { ROUTER_JSON_SCHEMA, routeModel, type RouteModelInput, type RouteModelResult } from './route-model';
import { SCORE_JSON_SCHEMA, SCORE_SYSTEM_PROMPT } from './route-score';

const tmp = useTempStore('da-route-model-');

const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });
const model = (text: string): Content => ({ role: 'model', parts: [{ text }] });
const call: Content = { role: 'model', parts: [{ functionCall: { id: 'c', name: 'ls', args: {} } }] };
const result: Content = {
  role: 'user',
  parts: [{ functionResponse: { id: 'c', name: 'ls', response: { output: 'a' } } }],
};

function run(models: JsonModelSeam, input: Partial<RouteModelInput> & { length: number }): Promise<RouteModelResult> {
  const defaults = {
    transcriptId: 'tx',
    request: 'list the files',
    fastModel: 'fast',
    strongModel: 'strong',
    classifierModel: 'lite',
  };
  return quietActivityEnv({}).run(routeModel, { models, store: tmp.store }, { ...defaults, ...input });
}

const choice = (model_choice: string) => JSON.stringify({ reasoning: 'One tool call.', model_choice });

describe('routeModel', () => {
  it('makes 1 classifier call with the last 4 non-tool messages and the request', async () => {
    const history = [
      user('q1'),
      model('a1'),
      user('q2'),
      model('a2'),
      call,
      result,
      user('q3'),
      model('a3'),
      call,
      result,
    ];
    const fake = fakeModel([choice('flash')]);
    const routed = await run(fake.models, { length: await tmp.writeTranscript(history) });
    expect(routed).toEqual({ model: 'fast', reasoning: 'One tool call.', complexity: 'simple', source: 'classifier' });
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request.model).toBe('lite');
    expect(request.contents).toEqual([user('q2'), model('a2'), user('q3'), model('a3'), user('list the files')]);
    // A model the catalogue does not pin gets its chat config, as Gemini CLI's alias-resolved classifier does.
    expect(request.config).toMatchObject({
      temperature: 1,
      topP: 0.95,
      topK: 64,
      responseMimeType: 'application/json',
      responseJsonSchema: ROUTER_JSON_SCHEMA,
    });
    expect(String(request.config?.systemInstruction)).toMatch(/"flash"/);
  });

  it('routes "pro" to the strong model', async () => {
    const fake = fakeModel([choice('pro')]);
    expect(await run(fake.models, { length: 0 })).toMatchObject({
      model: 'strong',
      complexity: 'complex',
      source: 'classifier',
    });
  });

  it.each([
    ['malformed JSON', 'flash please'],
    ['an unknown choice', choice('ultra')],
    ['a missing reasoning', JSON.stringify({ model_choice: 'flash' })],
  ])('falls back to the strong model on %s, after 1 call', async (_name, text) => {
    const fake = fakeModel([text]);
    expect(await run(fake.models, { length: 0 })).toMatchObject({ model: 'strong', source: 'default' });
    expect(fake.requests).toHaveLength(1);
  });

  it('falls back to the strong model on an API error, without throwing', async () => {
    const fake = fakeModel([new ApiError({ message: 'busy', status: 503 })]);
    expect(await run(fake.models, { length: 0 })).toMatchObject({
      model: 'strong',
      complexity: 'complex',
      source: 'default',
    });
    expect(fake.requests).toHaveLength(1);
  });
});

const GEMINI_3_PAIR = { fastModel: GEMINI_3.fast, strongModel: GEMINI_3.strong };
const score = (n: number) => JSON.stringify({ complexity_reasoning: 'Judged.', complexity_score: n });

describe('routeModel on a Gemini 3 pair: the complexity score, as Gemini CLI 0.61.0', () => {
  it('asks for a score with the last 8 messages from the first that is not a tool turn', async () => {
    const history = [user('q0'), call, result, user('q1'), model('a1'), call, result, model('a2'), user('q3')];
    const fake = fakeModel([score(42)]);
    const routed = await run(fake.models, { ...GEMINI_3_PAIR, length: await tmp.writeTranscript(history) });
    expect(routed).toMatchObject({ model: GEMINI_3.fast, complexity: 'simple', source: 'classifier' });
    expect(routed.reasoning).toBe('[Score: 42 / Threshold: 90] Judged.');
    const [request] = fake.requests;
    expect(request.config?.responseJsonSchema).toEqual(SCORE_JSON_SCHEMA);
    expect(request.config?.systemInstruction).toBe(SCORE_SYSTEM_PROMPT);
    // The last 8 start with a call and its response; the context starts at q1, tool turns after it kept.
    expect(request.contents).toEqual([...history.slice(3), user('list the files')]);
  });

  it.each([
    [89, GEMINI_3.fast],
    [90, GEMINI_3.strong],
    [100, GEMINI_3.strong],
  ])('a score of %i routes to %s', async (n, expected) => {
    expect((await run(fakeModel([score(n)]).models, { ...GEMINI_3_PAIR, length: 0 })).model).toBe(expected);
  });

  it('still understands a flash/pro answer (scripts written for the older protocol)', async () => {
    const answer = JSON.stringify({ reasoning: 'One call.', model_choice: 'flash' });
    expect(await run(fakeModel([answer]).models, { ...GEMINI_3_PAIR, length: 0 })).toMatchObject({
      model: GEMINI_3.fast,
      source: 'classifier',
    });
  });

  it.each([
    ['a score out of range', score(101)],
    ['a score that is not a whole number', score(12.5)],
    ['no score at all', JSON.stringify({ complexity_reasoning: 'x' })],
  ])('falls back to the strong model on %s', async (_name, text) => {
    expect(await run(fakeModel([text]).models, { ...GEMINI_3_PAIR, length: 0 })).toMatchObject({
      model: GEMINI_3.strong,
      source: 'default',
    });
  });
});
