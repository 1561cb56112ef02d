import { functionCallResponse, groundedResponse, textResponse, type ScriptLine } from '../../src/fake-gemini';
import { costOf, MODEL_PRICES } from '../../src/core/models';
import { EMPTY_USAGE } from '../../src/core/types';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, type Harness } from '../helpers/agent-harness';

/**
 * What a prompt spends, end to end: every model request of a prompt with a web search, a compression and a
 * sub-agent reaches the fake Gemini server through the real SDK, and the prompt's cost is the sum of the usage
 * reports the server sent, each priced by the catalogue's table, per model.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness('cost');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

const PRO = 'gemini-3.1-pro-preview';
type Usage = { promptTokenCount: number; candidatesTokenCount: number; cachedContentTokenCount?: number };
const withUsage = (line: ScriptLine, u: Usage & { thoughtsTokenCount?: number }): ScriptLine => {
  const usageMetadata = { ...u, totalTokenCount: u.promptTokenCount + u.candidatesTokenCount };
  if (Array.isArray(line.response))
    return { ...line, response: line.response.map((c) => ({ ...c, usageMetadata })) } as ScriptLine;
  return { ...line, response: { ...(line.response as object), usageMetadata } } as ScriptLine;
};
const json = (text: string): ScriptLine => ({
  method: 'generateContent',
  response: { candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP' }] },
});
const SNAPSHOT = '<state_snapshot>\n<overall_goal>finish</overall_goal>\n</state_snapshot>';

async function earlierConversation(id: string): Promise<number> {
  const filler = 'Some earlier discussion of the code base and the plan. '.repeat(40);
  for (let i = 0; i < 6; i++) {
    await h.store.writeMessage(id, i * 2, { role: 'user', parts: [{ text: `Earlier request ${i}: ${filler}` }] });
    await h.store.writeMessage(id, i * 2 + 1, { role: 'model', parts: [{ text: `Earlier answer ${i}: ${filler}` }] });
  }
  return 12;
}

/** The fake server's usage reports, priced by the table, summed per model. */
function pricedReports(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of h.fake.requests) {
    const u = r.usage ?? {};
    const usage = {
      ...EMPTY_USAGE,
      input: u.promptTokenCount ?? 0,
      output: u.candidatesTokenCount ?? 0,
      cached: u.cachedContentTokenCount ?? 0,
      thoughts: u.thoughtsTokenCount ?? 0,
    };
    out[r.model] = (out[r.model] ?? 0) + costOf(r.model, usage, MODEL_PRICES)!;
  }
  return out;
}

test('a web search, a compression and a sub-agent: the cost is the sum of the usage reports priced, per model', async () => {
  const id = `conv-${Date.now()}`;
  const length = await earlierConversation(id);
  const script = [
    // 600k prompt tokens: the long-prompt tier, and past half the window, so the next turn compresses first.
    withUsage(functionCallResponse({ name: 'google_web_search', args: { query: 'durable agents' } }), {
      promptTokenCount: 600_000,
      cachedContentTokenCount: 100_000,
      candidatesTokenCount: 5,
      thoughtsTokenCount: 40,
    }),
    withUsage(groundedResponse('Durable agents survive crashes.'), { promptTokenCount: 30, candidatesTokenCount: 8 }),
    withUsage(json(`draft ${SNAPSHOT}`), { promptTokenCount: 150_000, candidatesTokenCount: 300 }),
    withUsage(json(SNAPSHOT), { promptTokenCount: 20_000, candidatesTokenCount: 200 }),
    withUsage(functionCallResponse({ name: 'invoke_agent', args: { agent_name: 'generalist', prompt: 'go' } }), {
      promptTokenCount: 20_000,
      candidatesTokenCount: 5,
    }),
    withUsage(functionCallResponse({ name: 'complete_task', args: { result: 'done' } }), {
      promptTokenCount: 3000,
      candidatesTokenCount: 20,
      thoughtsTokenCount: 10,
    }),
    textResponse('all done'),
  ];
  const run = await h.run(script, { model: PRO, workspace: h.workspace({ 'a.txt': 'A' }), transcript: { id, length } });
  expect(run.result?.response).toBe('all done');
  expect(run.events.some((e) => e.type === 'chat_compressed')).toBe(true);
  expect(h.fake.requests.map((r) => r.model)).toEqual([PRO, 'gemini-3-flash-preview', PRO, PRO, PRO, PRO, PRO]);
  const expected = pricedReports();
  const cost = run.result!.stats.cost!;
  expect(Object.keys(cost.models).sort()).toEqual(Object.keys(expected).sort());
  for (const [model, usd] of Object.entries(expected)) expect(cost.models[model]).toBeCloseTo(usd, 10);
  expect(cost.usd).toBeCloseTo(
    Object.values(expected).reduce((a, b) => a + b, 0),
    10,
  );
  expect(cost.unpriced).toEqual([]);
  // The first request alone: 500k uncached at $4, 100k cached at $0.40, 45 output and thinking at $18 per million.
  expect(cost.usd).toBeGreaterThan((500_000 * 4 + 100_000 * 0.4 + 45 * 18) / 1e6);
});
