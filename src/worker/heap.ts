import * as v8 from 'node:v8';

/** The workflow thread's heap limit when none is configured (MiB of V8 old space). */
export const DEFAULT_WORKFLOW_HEAP_MIB = 300;

/**
 * Bounds the heap of the workflow thread the SDK starts in `Worker.create`, and sizes the workflow cache to it.
 * V8 sizes every heap's limit from the machine's memory (~4 GiB on 24 GiB) and grows a busy heap lazily toward
 * it, so a worker holding 1,000 prompts reached ~2.5 GiB of RSS. A new isolate reads the V8 flag when its thread
 * starts, so setting it before the SDK creates its thread limits that thread only; the main thread's heap was
 * sized when the process started. The SDK sizes its cache from the main thread's limit, which would then hold
 * more workflows than the thread's heap can: the cache follows the SDK's own rule, applied to the thread's limit.
 * The flag stays set for the process: threads started later (grep_search's matcher) get the same limit.
 */
export function boundWorkflowHeap(limitMiB = DEFAULT_WORKFLOW_HEAP_MIB): { maxCachedWorkflows: number } {
  v8.setFlagsFromString(`--max-old-space-size=${limitMiB}`);
  return { maxCachedWorkflows: Math.max(Math.floor(((limitMiB - 200) * 600) / 1024), 10) };
}
