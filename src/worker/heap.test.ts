import * as v8 from 'node:v8';
import { Worker } from 'node:worker_threads';
import { boundWorkflowHeap, DEFAULT_WORKFLOW_HEAP_MIB } from './heap';

const MiB = 1024 * 1024;

function threadHeapLimitMiB(): Promise<number> {
  const code =
    "require('node:worker_threads').parentPort.postMessage(require('node:v8').getHeapStatistics().heap_size_limit)";
  return new Promise((resolve, reject) => {
    const thread = new Worker(code, { eval: true });
    thread.once('message', (limit: number) => resolve(limit / MiB));
    thread.once('error', reject);
  });
}

describe('boundWorkflowHeap', () => {
  // The flag is process-wide: later test files in this jest process get V8's own sizing back.
  afterAll(() => v8.setFlagsFromString('--max-old-space-size=0'));

  it('limits the heap of a thread started after it, not the running one, and sizes the cache to it', async () => {
    const mainBefore = v8.getHeapStatistics().heap_size_limit;
    expect(boundWorkflowHeap(300)).toEqual({ maxCachedWorkflows: 58 });
    const limit = await threadHeapLimitMiB();
    // The old space is the flag's; V8 adds the young generation on top.
    expect(limit).toBeGreaterThanOrEqual(300);
    expect(limit).toBeLessThan(400);
    expect(v8.getHeapStatistics().heap_size_limit).toBe(mainBefore);
  });

  it('defaults to DEFAULT_WORKFLOW_HEAP_MIB and never sizes the cache below 10 workflows', async () => {
    expect(boundWorkflowHeap()).toEqual({
      maxCachedWorkflows: Math.floor(((DEFAULT_WORKFLOW_HEAP_MIB - 200) * 600) / 1024),
    });
    expect(await threadHeapLimitMiB()).toBeLessThan(DEFAULT_WORKFLOW_HEAP_MIB + 100);
    expect(boundWorkflowHeap(210)).toEqual({ maxCachedWorkflows: 10 });
  });
});
