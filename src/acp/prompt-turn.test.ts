import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { AgentClient } from '../client';
import type { FollowItem } from '../client/follow';
import type { AgentEvent } from '../core/events';
import { createLogger } from '../logger';
import type { EditorChannel } from './channel';
import { runPromptTurn } from './prompt-turn';
import { newUsageTally } from './usage';

const at = { seq: 0, time: '2026-11-28T00:00:00Z' };

test('a prompt paused on its token budget ends the editor’s turn (end_turn) while it waits for a top-up', async () => {
  const pause: AgentEvent = { type: 'budget_exhausted', used: 120, budget: 100, ...at };
  // The prompt's record: the pause, then nothing until someone tops it up (here: never).
  async function* follow(): AsyncGenerator<FollowItem> {
    yield { kind: 'event', event: pause };
    await new Promise(() => undefined);
  }
  const client = { send: async () => 's1-p1', follow, setMode: async () => undefined } as unknown as AgentClient;
  const shown: SessionUpdate[] = [];
  const cx: EditorChannel = {
    client,
    logger: createLogger('silent'),
    notify: async (update) => void shown.push(update),
    ask: () => new Promise(() => undefined),
  };
  const session = {
    id: 's1',
    cwd: '/ws',
    mode: 'default',
    startMode: 'default',
    model: 'auto',
    usage: newUsageTally(true),
  };
  expect(await runPromptTurn(session as never, { text: 'go', images: [] }, cx)).toBe('end_turn');
  expect(shown).toEqual([
    {
      sessionUpdate: 'agent_message_chunk',
      content: { type: 'text', text: expect.stringContaining('budget s1-p1 --add-tokens N') },
    },
  ]);
});
