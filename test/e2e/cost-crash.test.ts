import * as fs from 'node:fs';
import * as path from 'node:path';
import { FakeGeminiServer, textResponse, type ScriptLine } from '../../src/fake-gemini';
import { costOf, MODEL_PRICES } from '../../src/core/models';
import { EMPTY_USAGE } from '../../src/core/types';
import type { PromptResult } from '../../src/workflows/api';
import { closeTestEnv, getTestEnv } from '../helpers/temporal-env';
import { exited, spawnWorker, waitFor } from '../helpers/processes';
import { startPromptOnWorkerProcess } from '../helpers/worker-prompt';

let fake: FakeGeminiServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});
afterAll(async () => {
  await closeTestEnv();
});

const MODEL = 'gemini-3-flash-preview';
const usageMetadata = { promptTokenCount: 10_000, candidatesTokenCount: 1000, totalTokenCount: 11_000 };
const withUsage = (line: ScriptLine): ScriptLine =>
  ({ ...line, response: (line.response as object[]).map((c) => ({ ...c, usageMetadata })) }) as ScriptLine;

/**
 * The worker process is SIGKILLed while its model call waits for the answer; the call's retry on the next worker
 * answers. The prompt's tokens and cost are those of the one answer the provider reported, counted once: they come
 * from the activity's result, which only the attempt that finished has.
 */
test('a worker SIGKILLed mid model call: the retried call is counted once, in tokens and in cost', async () => {
  const env = await getTestEnv();
  const home = fs.mkdtempSync(path.join(env.tmpDir, 'cost-crash-home-'));
  const workspace = fs.realpathSync(fs.mkdtempSync(path.join(env.tmpDir, 'cost-crash-ws-')));
  fake = await FakeGeminiServer.start({
    script: [withUsage(textResponse('never sent', { delayMs: 120_000 })), withUsage(textResponse('Answered.'))],
  });
  const { workerEnv, first, handle } = await startPromptOnWorkerProcess(env, {
    name: 'cost-crash',
    fakeUrl: fake.url,
    home,
    workspace,
    prompt: 'go',
    input: { model: MODEL, modelHeartbeatTimeoutMs: 15_000 },
  });
  await waitFor(async () => (fake?.requests.length ?? 0) >= 1, 30_000, first.output);
  first.kill('SIGKILL');
  await exited(first);
  const second = spawnWorker(workerEnv);
  try {
    const result = (await handle.result()) as PromptResult;
    expect(result.response).toBe('Answered.');
    expect(fake.requests).toHaveLength(2);
    expect(result.stats.usage).toMatchObject({ input: 10_000, output: 1000 });
    const once = costOf(MODEL, { ...EMPTY_USAGE, input: 10_000, output: 1000 }, MODEL_PRICES)!;
    expect(result.stats.cost).toEqual({ usd: once, models: { [MODEL]: once }, unpriced: [] });
  } finally {
    second.kill('SIGTERM');
    await exited(second);
  }
}, 90_000);
