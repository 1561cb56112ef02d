import type { FollowItem } from '../client/follow';
import type { AgentEventBody } from '../core/events';
import { costOf, DEFAULT_TOKEN_LIMIT, GEMINI_2_5, MODEL_PRICES } from '../core/models';
import { acpUpdates, newUpdateView } from './updates';
import { newUsageTally } from './usage';

const event = (body: AgentEventBody): FollowItem => ({
  kind: 'event',
  event: { ...body, seq: 0, time: '2026-11-28T00:00:00Z' } as FollowItem extends { event: infer E } ? E : never,
});
const usage = (input: number, output: number) => ({ input, output, cached: 0, thoughts: 0, total: input + output });

describe('usage_update', () => {
  it('follows each model turn: its prompt tokens, the model’s input limit, the session’s cost so far in USD', () => {
    const tally = newUsageTally(true, 'auto');
    const first = newUpdateView('/ws', false, { usage: tally });
    acpUpdates(first, event({ type: 'model_info', model: GEMINI_2_5.fast }));
    const turn1 = acpUpdates(first, event({ type: 'finished', turn: 1, reason: 'STOP', usage: usage(1000, 50) }));
    const cost1 = costOf(GEMINI_2_5.fast, usage(1000, 50), MODEL_PRICES)!;
    expect(turn1).toEqual([
      {
        sessionUpdate: 'usage_update',
        used: 1000,
        size: DEFAULT_TOKEN_LIMIT,
        cost: { amount: cost1, currency: 'USD' },
      },
    ]);
    // The next prompt of the session adds to it.
    const second = newUpdateView('/ws', false, { usage: tally });
    const turn2 = acpUpdates(second, event({ type: 'finished', turn: 1, usage: usage(2000, 10) }));
    const cost2 = costOf(GEMINI_2_5.fast, usage(2000, 10), MODEL_PRICES)!;
    expect(turn2).toMatchObject([{ used: 2000, cost: { amount: cost1 + cost2, currency: 'USD' } }]);
  });

  it('leaves the cost out when it is not known: a session resumed midway, or a model without a price', () => {
    const resumed = newUpdateView('/ws', false, { usage: newUsageTally(false, GEMINI_2_5.fast) });
    const [update] = acpUpdates(resumed, event({ type: 'finished', turn: 1, usage: usage(10, 1) }));
    expect(update).toEqual({ sessionUpdate: 'usage_update', used: 10, size: DEFAULT_TOKEN_LIMIT });
    const unpriced = newUpdateView('/ws', false, { usage: newUsageTally(true, 'gemma-4-local') });
    const [gemma] = acpUpdates(unpriced, event({ type: 'finished', turn: 1, usage: usage(10, 1) }));
    expect(gemma).toEqual({ sessionUpdate: 'usage_update', used: 10, size: 256_000 });
  });
});
