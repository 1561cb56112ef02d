import { Context } from '@temporalio/activity';

/**
 * Runs `work` while heartbeating every `intervalMs`, and stops however it ends. The workflow sets
 * the heartbeat timeout; a worker that dies mid-call stops heartbeating, so Temporal retries the
 * activity elsewhere after that timeout instead of after the much longer start-to-close one.
 */
export async function withHeartbeat<T>(intervalMs: number, work: (ctx: Context) => Promise<T>): Promise<T> {
  const ctx = Context.current();
  const timer = setInterval(() => ctx.heartbeat(), intervalMs);
  try {
    return await work(ctx);
  } finally {
    clearInterval(timer);
  }
}

/**
 * Three heartbeats per heartbeat timeout (at most one per 5 s, at least 100 ms apart), so that a
 * short timeout set by the workflow is still met.
 */
export function heartbeatIntervalFor(timeoutMs: number | undefined): number {
  return timeoutMs ? Math.min(5000, Math.max(100, Math.floor(timeoutMs / 3))) : 5000;
}
