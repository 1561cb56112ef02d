import { errorLine, textResponse } from '../../src/fake-gemini';
import type { AgentEvent } from '../../src/core/events';
import { agentSessionWorkflow } from '../../src/workflows/session-workflow';
import { closeSessionSignal, sendMessageUpdate, type PromptResult, type SessionInput } from '../../src/workflows/api';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, type Harness } from '../helpers/agent-harness';
import { promptResultOnceStarted } from '../helpers/session-prompts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness('availability');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

const models = () => h.fake.requests.map((r) => r.model);
const warnings = (events: AgentEvent[]) =>
  events.flatMap((e) => (e.type === 'warning' ? [(e as { message: string }).message] : []));

describe('per worker', () => {
  // Its own models: the worker's memory lasts as long as the worker, across this file's tests.
  test('a used-up quota is met once: later prompts on the worker go straight to the fallback', async () => {
    // The quota resets in an hour: Temporal's retry of the 429 is refused by the worker, unsent.
    const usedUp = { ...errorLine(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded.') };
    usedUp.error!.details = [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '3600s' }];
    const first = await h.run([usedUp, textResponse('from flash')], { model: 'gemini-3.1-pro-preview' });
    expect(first.result?.response).toBe('from flash');
    expect(models()).toEqual(['gemini-3.1-pro-preview', 'gemini-3-flash-preview']);
    expect(warnings(first.events)).toEqual([
      expect.stringMatching(/^gemini-3\.1-pro-preview is out of quota on this worker/),
    ]);

    const second = await h.run([textResponse('again from flash')], { model: 'gemini-3.1-pro-preview' });
    expect(second.result?.response).toBe('again from flash');
    expect(models()).toEqual(['gemini-3-flash-preview']);
    expect(warnings(second.events)).toEqual([
      expect.stringMatching(
        /^gemini-3\.1-pro-preview is out of quota on this worker until .+; falling back to gemini-3-flash-preview$/,
      ),
    ]);
    expect(second.events.filter((e) => e.type === 'model_info').at(-1)).toMatchObject({
      model: 'gemini-3-flash-preview',
    });
  });
});

describe('per session', () => {
  function resultOf(promptId: string): Promise<PromptResult> {
    return promptResultOnceStarted(h.env.client, promptId);
  }

  async function session(defaults: Partial<SessionInput['defaults']>) {
    const handle = await h.env.client.workflow.start(agentSessionWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: `availability-session-${Date.now()}`,
      args: [
        {
          defaults: {
            workspace: h.workspace(),
            model: 'gemini-2.5-pro',
            approvalMode: 'yolo',
            maxTurns: 20,
            modelRetryInitialMs: 50,
            modelMaxAttempts: 2,
            ...defaults,
          },
        },
      ],
    });
    const send = async (text: string) => {
      const promptId = await handle.executeUpdate(sendMessageUpdate, { args: [{ text }] });
      return { promptId, result: await resultOf(promptId) };
    };
    return { handle, send };
  }

  const events = async (promptId: string) => h.events(promptId);

  test('a model that ran out of quota in one prompt is skipped by the next until its reset', async () => {
    const quota = errorLine(429, 'RESOURCE_EXHAUSTED', 'quota exceeded');
    h.fake.load([quota, quota, textResponse('first from flash'), textResponse('second from flash')]);
    const s = await session({});
    const first = await s.send('one');
    expect(first.result.response).toBe('first from flash');
    expect(first.result.unavailableModels).toEqual([{ model: 'gemini-2.5-pro', until: expect.any(Number) }]);
    // No reset time in the error: held out for 10 minutes.
    const until = first.result.unavailableModels![0].until;
    expect(until - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(until - Date.now()).toBeLessThanOrEqual(10 * 60_000);

    const second = await s.send('two');
    expect(second.result.response).toBe('second from flash');
    expect(models()).toEqual(['gemini-2.5-pro', 'gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.5-flash']);
    expect(warnings(await events(second.promptId))).toEqual([
      `gemini-2.5-pro is out of quota until ${new Date(until).toISOString()} (found earlier); ` +
        'using gemini-2.5-flash meanwhile',
    ]);
    await s.handle.signal(closeSessionSignal);
    await s.handle.result();
  });

  test('once the quota’s reset time has passed, the model is asked again', async () => {
    const quota = errorLine(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded. Please retry in 1s.');
    h.fake.load([quota, quota, textResponse('first from flash'), textResponse('second from pro')]);
    const s = await session({});
    const first = await s.send('one');
    expect(first.result.unavailableModels).toHaveLength(1);
    await new Promise((r) => setTimeout(r, Math.max(0, first.result.unavailableModels![0].until - Date.now()) + 200));
    const second = await s.send('two');
    expect(second.result.response).toBe('second from pro');
    expect(models().at(-1)).toBe('gemini-2.5-pro');
    expect(second.result.unavailableModels).toBeUndefined();
    await s.handle.signal(closeSessionSignal);
    await s.handle.result();
  });
});
