import { errorLine, textResponse, type ScriptLine } from '../../src/fake-gemini';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, type Harness } from '../helpers/agent-harness';
import { functionCallResponse } from '../../src/fake-gemini';

let h: Harness;
beforeAll(async () => {
  h = await createHarness('on-track');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

/** A non-streamed JSON answer, as the classifier and the next-speaker check receive it. */
const json = (value: unknown): ScriptLine => ({
  method: 'generateContent',
  response: {
    candidates: [
      {
        content: { role: 'model', parts: [{ text: typeof value === 'string' ? value : JSON.stringify(value) }] },
        finishReason: 'STOP',
      },
    ],
    usageMetadata: { promptTokenCount: 40, candidatesTokenCount: 7, totalTokenCount: 47 },
  },
});
const models = () => h.fake.requests.map((r) => `${r.method}:${r.model}`);

describe('routing with -m auto', () => {
  test('one classifier call picks the model, which stays for every turn of the prompt', async () => {
    const ws = h.workspace({ 'a.txt': 'A' });
    const script = [
      json({ reasoning: 'a simple lookup', model_choice: 'flash' }),
      functionCallResponse({ name: 'read_file', args: { file_path: 'a.txt' } }),
      textResponse('A'),
    ];
    const run = await h.run(script, { workspace: ws, model: 'auto' });
    expect(run.result?.response).toBe('A');
    expect(models()).toEqual([
      'generateContent:gemini-3.5-flash-lite',
      'generateContentStream:gemini-3.8-flash',
      'generateContentStream:gemini-3.8-flash',
    ]);
    expect(run.events.find((e) => e.type === 'model_info')).toMatchObject({ model: 'gemini-3.8-flash' });
    // The classifier's tokens count in the prompt's stats, under its own model.
    expect(run.status.stats?.models['gemini-3.5-flash-lite']).toMatchObject({ input: 40, output: 7, total: 47 });
  });

  test('an explicit model makes no classifier call', async () => {
    await h.run([textResponse('hi')], { model: 'gemini-2.5-pro' });
    expect(models()).toEqual(['generateContentStream:gemini-2.5-pro']);
  });

  test(
    'quota errors that outlast the retries fall back once from the strong to the fast model, with an ' + 'event',
    async () => {
      const quota = errorLine(429, 'RESOURCE_EXHAUSTED', 'quota exceeded');
      const script = [json({ reasoning: 'hard', model_choice: 'pro' }), quota, quota, textResponse('from flash')];
      const run = await h.run(script, { model: 'auto', modelMaxAttempts: 2 });
      expect(run.result?.response).toBe('from flash');
      expect(models()).toEqual([
        'generateContent:gemini-3.5-flash-lite',
        'generateContentStream:gemini-3.1-pro-preview',
        'generateContentStream:gemini-3.1-pro-preview',
        'generateContentStream:gemini-3.8-flash',
      ]);
      expect(
        run.events.some(
          (e) => e.type === 'warning' && /falling back to gemini-3.8-flash/.test((e as { message: string }).message),
        ),
      ).toBe(true);
    },
  );

  test('a malformed classifier answer routes to the strong model', async () => {
    await h.run([json('not json at all'), textResponse('ok')], { model: 'auto' });
    expect(models()[1]).toBe('generateContentStream:gemini-3.1-pro-preview');
  });
});

describe('next-speaker check', () => {
  test('"model" continues with "Please continue." until the check says "user": 4 calls', async () => {
    const script = [
      textResponse('First I will list the steps.'),
      json({ reasoning: 'it promised more', next_speaker: 'model' }),
      textResponse('Here they are.'),
      json({ reasoning: 'done', next_speaker: 'user' }),
    ];
    const run = await h.run(script, { nextSpeakerCheck: true });
    expect(run.result?.response).toBe('First I will list the steps.Here they are.');
    expect(h.fake.requests).toHaveLength(4);
    const third = h.fake.requests[2].body as { contents: { parts: { text?: string }[] }[] };
    expect(third.contents.at(-1)!.parts[0].text).toBe('Please continue.');
    expect(run.status.stats?.models['gemini-3-flash-preview']).toMatchObject({ total: 94 });
  });

  test('a malformed answer means "user": the prompt ends after 2 calls', async () => {
    const run = await h.run([textResponse('Done.'), json('{"next_speaker": 42')], { nextSpeakerCheck: true });
    expect(run.result?.response).toBe('Done.');
    expect(h.fake.requests).toHaveLength(2);
  });

  test('off by default: no check call', async () => {
    await h.run([textResponse('Done.')]);
    expect(h.fake.requests).toHaveLength(1);
  });
});
