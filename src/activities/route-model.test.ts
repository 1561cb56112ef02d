import { ApiError, type Content } from '@google/genai';
import { fakeModel } from '../../test/fakes/fake-json-model';
import { quietActivityEnv, useTempStore } from '../../test/helpers/activity-harness';
import type { JsonModelSeam } from '../model/seam';
import { ROUTER_JSON_SCHEMA, routeModel, type RouteModelInput } from './route-model';

const tmp = useTempStore('da-route-model-');

const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });
const model = (text: string): Content => ({ role: 'model', parts: [{ text }] });
const call: Content = { role: 'model', parts: [{ functionCall: { id: 'c', name: 'ls', args: {} } }] };
const result: Content = {
  role: 'user',
  parts: [{ functionResponse: { id: 'c', name: 'ls', response: { output: 'a' } } }],
};

function run(models: JsonModelSeam, input: Partial<RouteModelInput> & { length: number }) {
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
