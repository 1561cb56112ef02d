import type { WorkflowHandle } from '@temporalio/client';
import { statusQuery } from '../../src/workflows/api';

/** Polls a prompt's status until it pauses on its budget or spending limit (phase `budget_exhausted`), for 20 s. */
export async function waitForPause<T extends { phase: string }>(handle: WorkflowHandle): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const status = (await handle.query(statusQuery)) as unknown as T;
    if (status.phase === 'budget_exhausted') return status;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('never paused');
}
