import { Client } from '@temporalio/client';
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { confirmToolCall, followPrompt, type FollowItem } from '../../src/client';
import type { AgentEvent } from '../../src/core/events';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, type Harness } from '../helpers/agent-harness';

/**
 * Following pushes: the follower parks on Temporal's history long-poll and asks the events query
 * only when the prompt's history grew, so a prompt paused on an approval costs no query loop.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness('follow-push');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

/** A client on the test server that counts the queries sent through it. */
function countingClient(): { client: Client; queries: () => number } {
  let queries = 0;
  const client = new Client({
    connection: h.env.client.connection,
    interceptors: { workflow: [{ query: (input, next) => (queries++, next(input)) }] },
  });
  return { client, queries: () => queries };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('a follower of a prompt paused on approval asks no queries while nothing happens', async () => {
  const ws = h.workspace();
  const handle = await h.start(
    [functionCallResponse([{ name: 'write_file', args: { file_path: 'b.txt', content: 'x' } }]), textResponse('done')],
    { workspace: ws, approvalMode: 'default' },
  );
  const { client, queries } = countingClient();
  const events: AgentEvent[] = [];
  let whilePaused: Promise<number> | undefined;
  for await (const item of followPrompt(client, handle.workflowId, { live: h.live })) {
    if (item.kind !== 'event') continue;
    events.push(item.event);
    const { event } = item;
    if (event.type !== 'tool_call_awaiting_approval') continue;
    // Answered later, while the follower goes on following: long enough for a follower polling
    // every 150 ms to ask about ten times.
    whilePaused = (async () => {
      const before = queries();
      await pause(1500);
      const asked = queries() - before;
      await confirmToolCall(h.env.client, handle.workflowId, { callId: event.callId, outcome: 'proceed_once' });
      return asked;
    })();
  }
  expect(await whilePaused).toBeLessThanOrEqual(1);
  expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['tool_call_response', 'content']));
  expect(await handle.result()).toMatchObject({ terminateReason: 'completed' });
});

test('the follower parks while the caller handles an item, and stops asking when the caller stops iterating', async () => {
  const handle = await h.start(
    [functionCallResponse([{ name: 'write_file', args: { file_path: 'c.txt', content: 'x' } }])],
    {
      workspace: h.workspace(),
      approvalMode: 'default',
    },
  );
  const { client, queries } = countingClient();
  const iterator = followPrompt(client, handle.workflowId);
  let item: IteratorResult<FollowItem>;
  do item = await iterator.next();
  while (!item.done && !(item.value.kind === 'event' && item.value.event.type === 'tool_call_awaiting_approval'));
  await iterator.return(undefined);
  const asked = queries();
  await pause(1000);
  expect(queries()).toBe(asked);
  await handle.terminate('test over');
});

test('a follower stops when its signal aborts, with the prompt still running', async () => {
  const handle = await h.start(
    [functionCallResponse([{ name: 'write_file', args: { file_path: 'd.txt', content: 'x' } }])],
    {
      workspace: h.workspace(),
      approvalMode: 'default',
    },
  );
  const abort = new AbortController();
  const seen: string[] = [];
  for await (const item of followPrompt(h.env.client, handle.workflowId, { signal: abort.signal })) {
    if (item.kind === 'event') seen.push(item.event.type);
    if (item.kind === 'event' && item.event.type === 'tool_call_awaiting_approval') abort.abort();
  }
  expect(seen).toContain('tool_call_awaiting_approval');
  expect((await handle.describe()).status.name).toBe('RUNNING');
  await handle.terminate('test over');
});
