import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ApiError, type Content, type GenerateContentParameters, type GenerateContentResponse } from '@google/genai';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { FileTranscriptStore } from '../store/file-store';
import type { JsonModelSeam } from './next-speaker';
import { ROUTER_JSON_SCHEMA, routeModel, type RouteModelInput } from './route-model';

/** A scripted seam: one answer text (or error) per call; records each request as plain JSON. */
function fakeModel(script: (string | Error)[]) {
  const requests: GenerateContentParameters[] = [];
  const models: JsonModelSeam = {
    async generateContent(req: GenerateContentParameters) {
      requests.push(JSON.parse(JSON.stringify(req)) as GenerateContentParameters);
      const next = script.shift();
      if (next === undefined) throw new Error(`unexpected model call #${requests.length}`);
      if (next instanceof Error) throw next;
      return { candidates: [{ content: { role: 'model', parts: [{ text: next }] } }] } as GenerateContentResponse;
    },
  };
  return { models, requests };
}

let storeDir: string;
let store: FileTranscriptStore;

beforeEach(async () => {
  storeDir = await fs.mkdtemp(path.join(os.tmpdir(), 'da-route-model-'));
  store = new FileTranscriptStore(storeDir);
});

afterEach(() => fs.rm(storeDir, { recursive: true, force: true }));

const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });
const model = (text: string): Content => ({ role: 'model', parts: [{ text }] });
const call: Content = { role: 'model', parts: [{ functionCall: { id: 'c', name: 'ls', args: {} } }] };
const result: Content = { role: 'user', parts: [{ functionResponse: { id: 'c', name: 'ls', response: { output: 'a' } } }] };

async function writeTranscript(messages: Content[]): Promise<number> {
  for (const [i, message] of messages.entries()) await store.writeMessage('tx', i, message);
  return messages.length;
}

function run(models: JsonModelSeam, input: Partial<RouteModelInput> & { length: number }) {
  const env = new MockActivityEnvironment({}, { logger: new DefaultLogger('ERROR') });
  const defaults = { transcriptId: 'tx', request: 'list the files', fastModel: 'fast', strongModel: 'strong', classifierModel: 'lite' };
  return env.run(routeModel, { models, store }, { ...defaults, ...input });
}

const choice = (model_choice: string) => JSON.stringify({ reasoning: 'One tool call.', model_choice });

describe('routeModel', () => {
  it('makes 1 classifier call with the last 4 non-tool messages and the request', async () => {
    const history = [user('q1'), model('a1'), user('q2'), model('a2'), call, result, user('q3'), model('a3'), call, result];
    const fake = fakeModel([choice('flash')]);
    const routed = await run(fake.models, { length: await writeTranscript(history) });
    expect(routed).toEqual({ model: 'fast', reasoning: 'One tool call.', complexity: 'simple', source: 'classifier' });
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request.model).toBe('lite');
    expect(request.contents).toEqual([user('q2'), model('a2'), user('q3'), model('a3'), user('list the files')]);
    expect(request.config).toMatchObject({ temperature: 0, maxOutputTokens: 1024, responseMimeType: 'application/json', responseJsonSchema: ROUTER_JSON_SCHEMA });
    expect(String(request.config?.systemInstruction)).toMatch(/"flash"/);
  });

  it('routes "pro" to the strong model', async () => {
    const fake = fakeModel([choice('pro')]);
    expect(await run(fake.models, { length: 0 })).toMatchObject({ model: 'strong', complexity: 'complex', source: 'classifier' });
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
    expect(await run(fake.models, { length: 0 })).toMatchObject({ model: 'strong', complexity: 'complex', source: 'default' });
    expect(fake.requests).toHaveLength(1);
  });
});
