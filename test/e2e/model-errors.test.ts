import type { WorkflowFailedError } from '@temporalio/client';
import { errorLine, streamLine, textResponse } from '../../src/fake-gemini';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, maybeRecordHistory, type Harness } from '../helpers/agent-harness';
import { withoutSessionContext } from '../helpers/sent-parts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness('model-errors');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

const chunk = (text: string, final = false) => ({
  candidates: [{ content: { role: 'model', parts: [{ text }] }, ...(final ? { finishReason: 'STOP' } : {}) }],
  ...(final ? { usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2, totalTokenCount: 5 } } : {}),
});

test('a 429 is retried by Temporal and the prompt then succeeds', async () => {
  const run = await h.run([
    errorLine(429, 'RESOURCE_EXHAUSTED', 'quota exceeded, slow down'),
    textResponse('after the rate limit'),
  ]);
  expect(run.result?.response).toBe('after the rate limit');
  expect(h.fake.requests).toHaveLength(2);
  await maybeRecordHistory(h, run.workflowId, 'rate-limit-retry');
});

test('a 503 is retried too', async () => {
  const run = await h.run([
    errorLine(503, 'UNAVAILABLE', 'overloaded'),
    errorLine(500, 'INTERNAL', 'oops'),
    textResponse('fine'),
  ]);
  expect(run.result?.response).toBe('fine');
  expect(h.fake.requests).toHaveLength(3);
});

test('a 400 fails the prompt at once with a clear message', async () => {
  const run = await h.run([
    errorLine(400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.'),
    textResponse('never sent'),
  ]);
  expect(h.fake.requests).toHaveLength(1);
  const cause = (run.error as WorkflowFailedError).cause;
  expect(cause?.message).toContain('400');
  expect(cause?.message).toContain('invalid argument');
  expect(run.status).toMatchObject({ status: 'failed', error: { type: 'ModelCall.BadRequest' } });
  expect(run.events.at(-1)).toMatchObject({ type: 'error', errorType: 'ModelCall.BadRequest' });
  await maybeRecordHistory(h, run.workflowId, 'bad-request');
});

test('an authentication error fails at once and names the key to check', async () => {
  const run = await h.run([errorLine(403, 'PERMISSION_DENIED', 'API key not valid')]);
  expect(h.fake.requests).toHaveLength(1);
  expect(run.status.error).toMatchObject({ type: 'ModelCall.Auth' });
  expect(run.status.error?.message).toContain('GEMINI_API_KEY');
});

test('a 404 for a retired model fails at once, naming the model and its replacement', async () => {
  const run = await h.run([errorLine(404, 'NOT_FOUND', 'models/gemini-2.5-pro is not found')], {
    model: 'gemini-2.5-pro',
  });
  expect(h.fake.requests).toHaveLength(1);
  expect(run.status.error).toMatchObject({ type: 'ModelCall.NotFound' });
  expect(run.status.error?.message).toContain('model gemini-2.5-pro was not found');
  expect(run.status.error?.message).toContain('use gemini-3.1-pro-preview instead: -m gemini-3.1-pro-preview');
});

test('a stream cut mid-response is retried and its text is not duplicated', async () => {
  const cut = streamLine([chunk('Hello '), chunk('wor')], { dropAfterChunks: 1 });
  const whole = streamLine([chunk('Hello '), chunk('world.', true)]);
  const run = await h.run([cut, whole]);
  expect(h.fake.requests).toHaveLength(2);
  expect(run.result?.response).toBe('Hello world.');
  expect(run.events.filter((e) => e.type === 'content')).toHaveLength(1);
  const transcript = await h.store.readMessages(run.workflowId, 2);
  expect(transcript[1]).toEqual({ role: 'model', parts: [{ text: 'Hello world.' }] });
  await expect(h.store.readMessages(run.workflowId, 3)).rejects.toThrow(/no message 2/);
  await maybeRecordHistory(h, run.workflowId, 'stream-cut-retry');
});

test('an empty stream is an invalid response and is retried', async () => {
  const run = await h.run([streamLine([]), textResponse('second time lucky')]);
  expect(run.result?.response).toBe('second time lucky');
  expect(h.fake.requests).toHaveLength(2);
});

const malformed = streamLine([
  { candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'MALFORMED_FUNCTION_CALL' }] },
]);
const lastUserText = (body: unknown) => {
  const contents = (body as { contents: { role: string; parts: { text?: string }[] }[] }).contents;
  return contents.at(-1)?.parts.at(-1)?.text;
};

test('a turn still invalid after 4 attempts is followed by one "System: Please continue." and the prompt goes on', async () => {
  const run = await h.run([malformed, malformed, malformed, malformed, textResponse('the answer')]);
  expect(run.result).toMatchObject({ terminateReason: 'completed', response: 'the answer' });
  expect(h.fake.requests).toHaveLength(5);
  expect(lastUserText(h.fake.requests[3].body)).toBe('do the task');
  expect(lastUserText(h.fake.requests[4].body)).toBe('System: Please continue.');
  expect(run.events).toContainEqual(
    expect.objectContaining({ type: 'warning', message: expect.stringMatching(/MALFORMED_FUNCTION_CALL.*continue/) }),
  );
  const transcript = await h.store.readMessages(run.workflowId, 2);
  expect({ ...transcript[0], parts: withoutSessionContext(transcript[0].parts ?? []) }).toEqual({
    role: 'user',
    parts: [{ text: 'do the task' }, { text: 'System: Please continue.' }],
  });
  expect(transcript[1]).toEqual({ role: 'model', parts: [{ text: 'the answer' }] });
}, 60_000);

test('a prompt whose "Please continue." turn is invalid too ends with a clear error and its transcript kept', async () => {
  const run = await h.run(Array.from({ length: 8 }, () => malformed));
  await maybeRecordHistory(h, run.workflowId, 'invalid-stream-ended');
  expect(h.fake.requests).toHaveLength(8);
  expect(run.status).toMatchObject({ status: 'failed', error: { type: 'ModelCall.InvalidStream' } });
  expect(run.status.error?.message).toMatch(/MALFORMED_FUNCTION_CALL.*asked the model to continue/);
  const details = (run.error as WorkflowFailedError).cause as { details?: unknown[] };
  expect(details.details?.[0]).toMatchObject({ transcript: { id: run.workflowId, length: 1 } });
  const [sent] = await h.store.readMessages(run.workflowId, 1);
  expect(sent.parts).toEqual([{ text: 'do the task' }, { text: 'System: Please continue.' }]);
}, 90_000);
