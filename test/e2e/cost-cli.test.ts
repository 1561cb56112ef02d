/**
 * Cost as the binary shows it: `-o json` stats (per model and in total), `status`, `status --json` and `list`; a
 * model with no price says its cost is unknown; `model.prices` in settings prices it, and a bad price is a settings
 * error. Run `npm run build` first: the binary runs `dist/`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { textResponse, type ScriptLine } from '../../src/fake-gemini';
import { expectExit, sandboxesCleanedAfterEach } from '../helpers/cli';
import { TEST_ENV_VARS } from '../helpers/temporal-env';

jest.setTimeout(240_000);

const sandbox = sandboxesCleanedAfterEach();
const address = () => process.env[TEST_ENV_VARS.address];

/** An answer reporting 10,000 prompt tokens (2,000 cached) and 1,000 answer tokens. */
const answer: ScriptLine = (() => {
  const line = textResponse('Hello.');
  const usageMetadata = {
    promptTokenCount: 10_000,
    cachedContentTokenCount: 2000,
    candidatesTokenCount: 1000,
    totalTokenCount: 11_000,
  };
  return { ...line, response: (line.response as object[]).map((c) => ({ ...c, usageMetadata })) } as ScriptLine;
})();
type Stats = {
  models: Record<string, { tokens: { prompt: number }; cost?: { usd: number | null } }>;
  cost?: { usd: number | null; pricedUsd: number; unpriced: string[] };
};

test('-o json, status and list show the cost in USD; a model with no price has an unknown cost, never 0', async () => {
  const box = sandbox('cost', address());
  const run = async (model: string) => {
    const result = await box.run(['-p', 'hi', '-m', model, '-o', 'json', '--fake-responses', box.script([answer])]);
    expectExit(result, 0);
    return JSON.parse(result.stdout) as { session_id: string; stats: Stats };
  };
  // gemini-3-flash-preview: 8,000 uncached at $0.50, 2,000 cached at $0.05, 1,000 out at $3 per million.
  const usd = (8000 * 0.5 + 2000 * 0.05 + 1000 * 3) / 1e6;
  const priced = await run('gemini-3-flash-preview');
  expect(priced.stats.models['gemini-3-flash-preview'].cost?.usd).toBeCloseTo(usd, 12);
  expect(priced.stats.cost).toEqual({ usd: expect.any(Number), pricedUsd: expect.any(Number), unpriced: [] });
  expect(priced.stats.cost?.usd).toBeCloseTo(usd, 12);

  const unknown = await run('gemma-4-31b-it');
  expect(unknown.stats.models['gemma-4-31b-it']).toMatchObject({ tokens: { prompt: 10_000 }, cost: { usd: null } });
  expect(unknown.stats.cost).toEqual({ usd: null, pricedUsd: 0, unpriced: ['gemma-4-31b-it'] });

  const status = await box.run(['status', priced.session_id]);
  expect(status.stdout).toContain('cost: $0.0071');
  const statusJson = JSON.parse((await box.run(['status', unknown.session_id, '--json'])).stdout) as { stats: Stats };
  expect(statusJson.stats.cost?.unpriced).toEqual(['gemma-4-31b-it']);
  expect((await box.run(['status', unknown.session_id])).stdout).toContain(
    'cost: unknown (no price for gemma-4-31b-it; $0.0000 for the rest)',
  );
  const list = (await box.run(['list'])).stdout.split('\n');
  expect(list.find((l) => l.startsWith(priced.session_id))).toContain('$0.0071');
  expect(list.find((l) => l.startsWith(unknown.session_id))).toContain('unknown');
});

test('model.prices in settings prices a model the catalogue does not; a bad price is a settings error', async () => {
  const box = sandbox('cost-settings', address());
  const settings = path.join(box.home, 'settings.json');
  const script = () => box.script([answer]);
  fs.writeFileSync(settings, JSON.stringify({ model: { prices: { 'gemma-4-31b-it': { input: 1, output: 2 } } } }));
  const ok = await box.run(['-p', 'hi', '-m', 'gemma-4-31b-it', '-o', 'json', '--fake-responses', script()]);
  expectExit(ok, 0);
  // No cachedInput given: cached tokens cost what input does.
  expect((JSON.parse(ok.stdout) as { stats: Stats }).stats.cost?.usd).toBeCloseTo((10_000 * 1 + 1000 * 2) / 1e6, 12);

  fs.writeFileSync(
    settings,
    JSON.stringify({ model: { prices: { 'gemma-4-31b-it': { input: -1, output: 'a lot' } } } }),
  );
  const bad = await box.run(['-p', 'hi', '-m', 'gemma-4-31b-it', '--fake-responses', script()]);
  expectExit(bad, 52);
  expect(bad.stderr).toMatch(/model\.prices\.gemma-4-31b-it\.input: must not be negative/);
});
