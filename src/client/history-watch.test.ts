import type { Client } from '@temporalio/client';
import { HistoryWatch } from './history-watch';

/** A gRPC failure as the SDK's service calls reject with it. */
function grpcError(code: number, details: string): Error {
  return Object.assign(new Error(`${code} ${details}`), { code, details, metadata: {} });
}

/** A client whose history call answers with `answer` (what the server says), for what the watch makes of it. */
function clientAnswering(answer: () => Promise<unknown>): Client {
  return {
    options: { namespace: 'default' },
    connection: {
      options: { address: '127.0.0.1:7999' },
      withAbortSignal: (_s: AbortSignal, fn: () => unknown) => fn(),
    },
    workflowService: { getWorkflowExecutionHistory: answer },
  } as unknown as Client;
}

test('a server that is gone is said plainly, with the address and the prompt', async () => {
  const watch = new HistoryWatch(
    clientAnswering(() => Promise.reject(grpcError(14, 'No connection established'))),
    'prompt-1',
  );
  await expect(watch.change()).rejects.toThrow(
    /lost the Temporal server at 127\.0\.0\.1:7999 while following prompt-1: No connection established; the prompt itself/,
  );
});

test('an unknown workflow is "missing" (a queued session message), not an error', async () => {
  const watch = new HistoryWatch(
    clientAnswering(() => Promise.reject(grpcError(5, 'workflow not found'))),
    'p',
  );
  expect(await watch.change()).toBe('missing');
});

test('a history without a next page token is a closed run; one with only activity events is no change', async () => {
  const answers = [
    { history: { events: [{ eventType: 10 }] }, nextPageToken: Buffer.from('t') },
    { history: { events: [{ eventType: 7 }] }, nextPageToken: Buffer.from('t') },
    { history: { events: [{ eventType: 2 }] }, nextPageToken: Buffer.alloc(0) },
  ];
  const watch = new HistoryWatch(
    clientAnswering(async () => answers.shift()),
    'p',
  );
  expect(await watch.change()).toBe('grew');
  expect(answers).toHaveLength(1);
  expect(await watch.change()).toBe('closed');
});
