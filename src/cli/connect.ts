import { describeExecution, type Client } from '../client';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { openRuntime } from '../runtime';

export type Ctx = { config: Config; logger: Logger };

/**
 * Runs an inspection command against the configured server. With none running at a local address,
 * the embedded one is started on its database for the command's duration, so the state of earlier
 * prompts stays visible after every process has exited.
 */
export async function withClient(ctx: Ctx, fn: (client: Client) => Promise<number>): Promise<number> {
  const runtime = await openRuntime(ctx.config, { worker: 'never', logger: ctx.logger, uiEnabled: false });
  try {
    return await fn(runtime.client);
  } finally {
    await runtime.stop();
  }
}

/**
 * Like `withClient`, for a command about one prompt. Queries need a worker on the prompt's task
 * queue; a closed prompt often has none left (its `run` process is gone), so a query-only worker is
 * started here for it. A running prompt is left to its own workers.
 */
export async function withPrompt(
  ctx: Ctx,
  workflowId: string,
  fn: (client: Client) => Promise<number>,
): Promise<number> {
  return withClient(ctx, async (client) => {
    const description = await describeExecution(client, workflowId);
    if (description.status === 'RUNNING') return fn(client);
    const { withQueryWorker } = await import('../worker');
    return withQueryWorker(ctx.config, description.taskQueue, () => fn(client));
  });
}
