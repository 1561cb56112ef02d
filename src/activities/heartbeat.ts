import { Context } from '@temporalio/activity';

/**
 * Runs `work` while heartbeating every `intervalMs`, and stops however it ends. The workflow sets
 * the heartbeat timeout; a worker that dies mid-call stops heartbeating, so Temporal retries the
 * activity elsewhere after that timeout instead of after the much longer start-to-close one.
 */
export async function withHeartbeat<T>(
  intervalMs: number,
  work: (ctx: Context, beat: () => void) => Promise<T>,
): Promise<T> {
  const ctx = Context.current();
  const timer = setInterval(() => ctx.heartbeat(), intervalMs);
  try {
    return await work(ctx, laterBeat(ctx, intervalMs));
  } finally {
    clearInterval(timer);
  }
}

/**
 * A heartbeat for progress (a streamed chunk) that is sent only once the call has run `intervalMs`:
 * a call that ends sooner never heartbeats. The SDK sends an attempt's first heartbeat at once and
 * the server persists it, a write per model call that we measured at ~2 ms of server CPU a
 * turn; the timer alone already keeps the heartbeat timeout (three beats per timeout), and the
 * SDK throttles later beats to one per 80 % of the timeout whatever calls them.
 */
function laterBeat(ctx: Context, intervalMs: number): () => void {
  const from = Date.now();
  return () => {
    if (Date.now() - from >= intervalMs) ctx.heartbeat();
  };
}

/**
 * Three heartbeats per heartbeat timeout (at most one per 5 s, at least 100 ms apart), so that a
 * short timeout set by the workflow is still met.
 */
export function heartbeatIntervalFor(timeoutMs: number | undefined): number {
  return timeoutMs ? Math.min(5000, Math.max(100, Math.floor(timeoutMs / 3))) : 5000;
}
