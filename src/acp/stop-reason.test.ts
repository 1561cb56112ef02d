import type { AgentEvent } from '../core/events';
import { acpUpdates, newUpdateView } from './updates';
import { pausedForMoney, stopReasonAfter } from './stop-reason';

const at = { seq: 0, time: '2026-11-28T00:00:00Z' };
const costPause: AgentEvent = {
  type: 'cost_limit_reached',
  spentUsd: 0.5,
  limitUsd: 0.5,
  nextRequestUsd: 0.01,
  model: 'gemini-2.5-pro',
  request: 'turn',
  ...at,
};
const budgetPause: AgentEvent = { type: 'budget_exhausted', used: 120, budget: 100, ...at };

test('a prompt paused on its spending limit or token budget ends the turn without claiming the token limit', () => {
  for (const pause of [costPause, budgetPause]) {
    expect(stopReasonAfter('end_turn', pause)).toBe('end_turn');
    expect(pausedForMoney(pause)).toBe(true);
  }
  expect(stopReasonAfter('end_turn', { type: 'finished', turn: 1, reason: 'MAX_TOKENS', usage: EMPTY, ...at })).toBe(
    'max_tokens',
  );
});

test('the pause says the prompt waits for a top-up, with the command that gives it', () => {
  const view = newUpdateView('/ws', false, { promptId: 'acp-1-p2' });
  const shown = (event: AgentEvent) =>
    acpUpdates(view, { kind: 'event', event }).map((u) => (u.sessionUpdate === 'agent_message_chunk' ? u.content : u));
  expect(shown(costPause)).toEqual([
    { type: 'text', text: expect.stringMatching(/paused\. Answer with `.*budget acp-1-p2 --add-usd N` or `--stop`/) },
  ]);
  expect(shown(budgetPause)).toEqual([
    { type: 'text', text: expect.stringMatching(/paused; answer with `.*budget acp-1-p2 --add-tokens N`/) },
  ]);
  expect(JSON.stringify(shown(costPause))).not.toContain('stopped');
});

const EMPTY = { input: 0, output: 0, cached: 0, thoughts: 0, total: 0 };
