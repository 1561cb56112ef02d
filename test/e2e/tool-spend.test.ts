import { functionCallResponse, groundedResponse, textResponse } from '../../src/fake-gemini';
import { SIDE_CALL_MODELS } from '../../src/core/models';
import { topUpBudget } from '../../src/client';
import { closeTestEnv } from '../helpers/temporal-env';
import { waitForPause } from '../helpers/spend-pause';
import { createHarness, maybeRecordHistory, type Harness } from '../helpers/agent-harness';

/**
 * The web tools send model requests of their own from inside their activity: a prompt with a spending limit
 * checks their worst case before the call runs, pauses when they could cross it, and runs the call after a top-up.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness('tool-spend');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

/**
 * USD per million tokens. A main request's whole answer (65,536 tokens) could cost $0.66, so each fits a $1 limit;
 * one grounded request of the web model could cost $1.31 (its output alone), and web_fetch's two with 250,000
 * characters of pages each $1.44.
 */
const modelPrices = {
  'gemini-test-model': { input: 0.1, cachedInput: 0.01, output: 10, thinking: 10 },
  [SIDE_CALL_MODELS.web]: { input: 1, cachedInput: 0.1, output: 20, thinking: 20 },
};

type Status = { phase: string; costLimit?: { limitUsd: number; spentUsd: number; nextRequestUsd?: number } };

const search = functionCallResponse({ name: 'google_web_search', args: { query: 'durable agents' } });

test('a web search whose grounded request could cross the limit pauses before it is sent; a top-up runs it', async () => {
  const script = [search, groundedResponse('Durable agents survive crashes.'), textResponse('found it')];
  const handle = await h.start(script, { modelPrices, maxCostUsd: 1 });
  const paused = await waitForPause<Status>(handle);
  // Only the main request went out: the search's grounded request waits for the top-up.
  expect(h.fake.requests.map((r) => r.method)).toEqual(['generateContentStream']);
  expect(paused.costLimit?.limitUsd).toBe(1);
  expect(paused.costLimit?.nextRequestUsd).toBeGreaterThan(1.31);
  await topUpBudget(h.env.client, handle.workflowId, { usd: 1 });
  const run = await h.finish(handle);
  expect(run.result?.response).toBe('found it');
  expect(h.fake.requests.map((r) => r.method)).toEqual([
    'generateContentStream',
    'generateContent',
    'generateContentStream',
  ]);
  expect(run.events.filter((e) => e.type === 'cost_limit_reached')).toEqual([
    expect.objectContaining({ request: 'google_web_search', model: SIDE_CALL_MODELS.web, limitUsd: 1 }),
  ]);
  await maybeRecordHistory(h, run.workflowId, 'tool-spend');
});

test('a stop at the limit answers the web call as not run and ends the prompt; its request is never sent', async () => {
  const handle = await h.start([search, textResponse('never')], { modelPrices, maxCostUsd: 1 });
  await waitForPause<Status>(handle);
  await topUpBudget(h.env.client, handle.workflowId, 'stop');
  const run = await h.finish(handle);
  expect(run.result?.terminateReason).toBe('stopped');
  expect(h.fake.requests).toHaveLength(1);
  const answered = run.events.filter((e) => e.type === 'tool_call_response');
  expect(answered).toEqual([expect.objectContaining({ name: 'google_web_search', ok: false, errorKind: 'cancelled' })]);
});

test('web_fetch is sized with the pages it may fetch: the prompt and its URL alone would fit the limit', async () => {
  const fetchCall = functionCallResponse({ name: 'web_fetch', args: { prompt: 'Summarize https://example.com/a' } });
  // Two requests of 62,500+ tokens in and 65,536 out: $2.75 at most, past $2.70; without the pages, $2.62.
  const handle = await h.start([fetchCall, textResponse('never')], { modelPrices, maxCostUsd: 2.7 });
  const paused = await waitForPause<Status>(handle);
  expect(h.fake.requests).toHaveLength(1);
  expect(paused.costLimit?.nextRequestUsd).toBeCloseTo(2.746, 2);
  await topUpBudget(h.env.client, handle.workflowId, 'stop');
  expect((await h.finish(handle)).result?.terminateReason).toBe('stopped');
  expect(h.fake.requests).toHaveLength(1);
});
