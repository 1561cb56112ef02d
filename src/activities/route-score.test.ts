import type { Content } from '@google/genai';
import { fakeModel } from '../../test/fakes/fake-json-model';
import { quietActivityEnv, useTempStore } from '../../test/helpers/activity-harness';
import { GEMINI_3 } from '../core/models';
import type { JsonModelSeam } from '../model/seam';
import { routeModel, type RouteModelResult } from './route-model';
import { SCORE_JSON_SCHEMA, SCORE_SYSTEM_PROMPT } from './route-score';

const tmp = useTempStore('da-route-score-');

const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });
const model = (text: string): Content => ({ role: 'model', parts: [{ text }] });
const call: Content = { role: 'model', parts: [{ functionCall: { id: 'c', name: 'ls', args: {} } }] };
const result: Content = {
  role: 'user',
  parts: [{ functionResponse: { id: 'c', name: 'ls', response: { output: 'a' } } }],
};
const score = (n: number) => JSON.stringify({ complexity_reasoning: 'Judged.', complexity_score: n });

function run(models: JsonModelSeam, length: number): Promise<RouteModelResult> {
  const input = {
    transcriptId: 'tx',
    request: 'list the files',
    fastModel: GEMINI_3.fast,
    strongModel: GEMINI_3.strong,
    classifierModel: 'lite',
    length,
  };
  return quietActivityEnv({}).run(routeModel, { models, store: tmp.store }, input);
}

describe('routeModel on a Gemini 3 pair: the complexity score, as Gemini CLI 0.61.0', () => {
  it('asks for a score with the last 8 messages from the first that is not a tool turn', async () => {
    const history = [user('q0'), call, result, user('q1'), model('a1'), call, result, model('a2'), user('q3')];
    const fake = fakeModel([score(42)]);
    const routed = await run(fake.models, await tmp.writeTranscript(history));
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
    expect((await run(fakeModel([score(n)]).models, 0)).model).toBe(expected);
  });

  it('still understands a flash/pro answer (scripts written for the older protocol)', async () => {
    const answer = JSON.stringify({ reasoning: 'One call.', model_choice: 'flash' });
    expect(await run(fakeModel([answer]).models, 0)).toMatchObject({ model: GEMINI_3.fast, source: 'classifier' });
  });

  it.each([
    ['a score out of range', score(101)],
    ['a score that is not a whole number', score(12.5)],
    ['no score at all', JSON.stringify({ complexity_reasoning: 'x' })],
  ])('falls back to the strong model on %s', async (_name, text) => {
    expect(await run(fakeModel([text]).models, 0)).toMatchObject({ model: GEMINI_3.strong, source: 'default' });
  });
});
