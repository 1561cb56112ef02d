import {
  beforeModelRequest,
  checkIntervalFor,
  countModelRequest,
  createLlmCheckSchedule,
  judgeConfirmAnswer,
  judgeFastAnswer,
  runLlmLoopCheck,
  type LlmCheckSchedule,
  type LoopCheckResult,
} from './llm-schedule';
import { createLoopState, disableLoopDetection, type LoopState } from './detection';

const answer = (confidence: number, model = 'fast', analysis = `confidence ${confidence}`): LoopCheckResult => ({
  isLoop: confidence >= 0.9,
  confidence,
  analysis,
  model,
  answered: true,
});
const noAnswer: LoopCheckResult = { isLoop: false, confidence: 0, analysis: '', model: 'fast', answered: false };

/** Request numbers (1-based) at which a check is due over `n` requests, with a fixed interval. */
function dueRequests(n: number, schedule: LlmCheckSchedule = createLlmCheckSchedule()): number[] {
  const due: number[] = [];
  for (let i = 1; i <= n; i++) {
    const step = countModelRequest(schedule);
    schedule = step.schedule;
    if (step.checkDue) due.push(i);
  }
  return due;
}

/**
 * Drives a prompt of `n` model requests the way the workflow will, answering each check from
 * `verdicts` (fast, then confirm if asked). Returns the requests at which checks ran and the models
 * asked, in order: the model calls Gemini CLI makes in the same situation.
 */
async function drive(n: number, verdicts: (LoopCheckResult | undefined)[], confirm?: string) {
  let state: LoopState = createLoopState();
  const calls: string[] = [];
  const checks: number[] = [];
  for (let i = 1; i <= n; i++) {
    const before = beforeModelRequest(state);
    state = before.state;
    if (!before.checkDue) continue;
    checks.push(i);
    const run = await runLlmLoopCheck(state, { fast: 'flash', confirm }, async (model) => {
      calls.push(`${i}:${model}`);
      return verdicts.shift();
    });
    state = run.state;
    if (run.detection) return { checks, calls, detection: run.detection, at: i, state };
  }
  return { checks, calls, state };
}

describe('when the LLM check runs', () => {
  it('never before the 30th model request, then every 10 by default', () => {
    expect(dueRequests(29)).toEqual([]);
    expect(dueRequests(60)).toEqual([30, 40, 50, 60]);
  });

  it('adapts the interval to confidence: round(5 + 10 × (1 − c)), within 5..15', () => {
    expect([1, 0.9, 0.85, 0.5, 0.25, 0, 1.4, -1].map(checkIntervalFor)).toEqual([5, 6, 7, 10, 13, 15, 5, 15]);
  });

  it('follows the confidence of each answer', async () => {
    const run = await drive(80, [answer(0), answer(0.5), answer(0.8), answer(0.1)], 'pro');
    expect(run.checks).toEqual([30, 45, 55, 62, 76]);
    expect(run.calls).toEqual(['30:flash', '45:flash', '55:flash', '62:flash', '76:flash']);
    expect(run.detection).toBeUndefined();
  });

  it('does not count requests while detection is off', () => {
    const off = beforeModelRequest(disableLoopDetection(createLoopState()));
    expect(off.checkDue).toBe(false);
    expect(off.state.llm.requests).toBe(0);
  });
});

describe('which models are asked, and the verdict', () => {
  it('a confident fast answer is confirmed by the stronger model: 2 calls, a loop', async () => {
    const run = await drive(
      40,
      [answer(0.95, 'flash'), answer(0.92, 'pro', 'Reads the same file again and again.')],
      'pro',
    );
    expect(run.calls).toEqual(['30:flash', '30:pro']);
    expect(run.at).toBe(30);
    expect(run.detection).toEqual({ kind: 'llm_loop', detail: 'Reads the same file again and again.' });
    const recovery = beforeModelRequest(run.state);
    expect(recovery).toMatchObject({
      checkDue: false,
      state: { llm: { requests: 31, lastCheckAt: 30, interval: 10 } },
    });
  });

  it('an unconfirmed fast answer is no loop, and the stronger model sets the interval', async () => {
    const run = await drive(45, [answer(0.95), answer(0.3, 'pro'), answer(0.2)], 'pro');
    expect(run.calls).toEqual(['30:flash', '30:pro', '42:flash']);
    expect(run.detection).toBeUndefined();
  });

  it('without a confirming model, a confident fast answer is a loop: 1 call', async () => {
    const run = await drive(40, [answer(0.9, 'flash', 'Same edit, same error.')]);
    expect(run.calls).toEqual(['30:flash']);
    expect(run.detection?.detail).toBe('Same edit, same error.');
  });

  it('no usable answer is no loop and leaves the interval alone', async () => {
    const failed = await drive(50, [undefined, noAnswer], 'pro');
    expect(failed.calls).toEqual(['30:flash', '40:flash', '50:flash']);
    const unconfirmed = await drive(50, [answer(0.99), undefined, answer(0)], 'pro');
    expect(unconfirmed.calls).toEqual(['30:flash', '30:pro', '40:flash']);
  });

  it('judges single answers', () => {
    const schedule = { requests: 30, lastCheckAt: 30, interval: 10 };
    expect(judgeFastAnswer(schedule, answer(0.89), 'pro')).toEqual({
      next: 'done',
      schedule: { ...schedule, interval: 6 },
    });
    expect(judgeFastAnswer(schedule, answer(0.9), 'pro')).toEqual({ next: 'confirm', model: 'pro' });
    expect(judgeFastAnswer(schedule, noAnswer, 'pro')).toEqual({ next: 'done', schedule });
    expect(judgeConfirmAnswer(schedule, answer(0.9, 'pro', ''))).toEqual({
      schedule,
      detection: { kind: 'llm_loop', detail: '' },
    });
    expect(judgeConfirmAnswer(schedule, answer(0.7, 'pro'))).toEqual({ schedule: { ...schedule, interval: 8 } });
  });
});
