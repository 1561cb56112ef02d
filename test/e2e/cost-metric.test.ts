/**
 * `durable_agent_cost_usd_total{model=…}` on a worker's Prometheus endpoint holds what the prompt's `-o json` stats
 * say it cost, per model: two main turns and a web search's grounded call on another model. Run `npm run build`
 * first: the worker and the CLI run `dist/`.
 */
import { FakeGeminiServer, functionCallResponse, groundedResponse, textResponse } from '../../src/fake-gemini';
import type { ScriptLine } from '../../src/fake-gemini';
import { hasPollers } from '../../src/client';
import { expectExit, sandboxesCleanedAfterEach } from '../helpers/cli';
import { scrape, sum } from '../helpers/metrics';
import { freePort } from '../helpers/postgres';
import { exited, spawnWorker, waitFor } from '../helpers/processes';
import { closeTestEnv, getTestEnv } from '../helpers/temporal-env';

jest.setTimeout(120_000);

const sandbox = sandboxesCleanedAfterEach();
let fake: FakeGeminiServer | undefined;
afterAll(async () => {
  await fake?.close();
  await closeTestEnv();
});

const PRO = 'gemini-3.1-pro-preview';
const FLASH = 'gemini-3-flash-preview';
const withUsage = (line: ScriptLine, promptTokenCount: number, candidatesTokenCount: number): ScriptLine => {
  const usageMetadata = {
    promptTokenCount,
    candidatesTokenCount,
    totalTokenCount: promptTokenCount + candidatesTokenCount,
  };
  if (Array.isArray(line.response))
    return { ...line, response: line.response.map((c) => ({ ...c, usageMetadata })) } as ScriptLine;
  return { ...line, response: { ...(line.response as object), usageMetadata } } as ScriptLine;
};
type Stats = { models: Record<string, { cost?: { usd: number | null } }>; cost?: { usd: number | null } };

test('durable_agent_cost_usd_total by model equals the cost in the prompt’s -o json stats', async () => {
  const env = await getTestEnv();
  fake = await FakeGeminiServer.start({
    script: [
      withUsage(functionCallResponse({ name: 'google_web_search', args: { query: 'durable agents' } }), 12_345, 67),
      withUsage(groundedResponse('Durable agents survive crashes.'), 3_210, 89),
      withUsage(textResponse('Done.'), 23_456, 321),
    ],
  });
  const box = sandbox('cost-metric', env.address);
  const taskQueue = env.uniqueTaskQueue('cost-metric');
  const port = await freePort();
  const common = {
    TEMPORAL_ADDRESS: env.address,
    DURABLE_AGENT_TASK_QUEUE: taskQueue,
    GOOGLE_GEMINI_BASE_URL: fake.url,
  };
  const worker = spawnWorker({ ...common, DURABLE_AGENT_HOME: box.home }, ['--metrics', `127.0.0.1:${port}`]);
  try {
    await waitFor(() => hasPollers(env.client, taskQueue), 30_000, worker.output);
    const run = await box.run(['-p', 'search it', '-m', PRO, '--approval-mode', 'yolo', '-o', 'json'], {
      env: common,
    });
    expectExit(run, 0);
    const stats = (JSON.parse(run.stdout) as { stats: Stats }).stats;
    expect(fake.requests.map((r) => r.model)).toEqual([PRO, FLASH, PRO]);
    const costOf = (model: string) => stats.models[model]?.cost?.usd ?? NaN;
    expect(costOf(PRO)).toBeGreaterThan(0);
    expect(costOf(FLASH)).toBeGreaterThan(0);

    const total = (text: string, model: string) => sum([text], 'durable_agent_cost_usd_total', modelLabel(model));
    let text = '';
    await waitFor(
      async () => total((text = await scrape(port)), FLASH) > 0 && total(text, PRO) > 0,
      10_000,
      () => text,
    );
    expect(total(text, PRO)).toBeCloseTo(costOf(PRO), 12);
    expect(total(text, FLASH)).toBeCloseTo(costOf(FLASH), 12);
    expect(total(text, PRO) + total(text, FLASH)).toBeCloseTo(stats.cost?.usd ?? NaN, 12);
  } finally {
    worker.kill('SIGTERM');
    await exited(worker);
  }
});

const modelLabel = (model: string) => new RegExp(`model="${model.replace(/\./g, '\\.')}"`);
