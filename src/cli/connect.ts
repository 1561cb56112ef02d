import type { Client } from '@temporalio/client';
import { cancelPrompt } from '../client';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { Io } from './output';
import { openRuntime } from './runtime';

/**
 * Runs an inspection command against the configured server. With none running at a local address,
 * the embedded one is started on its database for the command's duration, so the state of earlier
 * prompts stays visible after every process has exited.
 */
export async function withClient(ctx: { config: Config; logger: Logger }, fn: (client: Client) => Promise<number>): Promise<number> {
  const runtime = await openRuntime(ctx.config, { worker: 'never', logger: ctx.logger, uiEnabled: false });
  try {
    return await fn(runtime.client);
  } finally {
    await runtime.stop();
  }
}

export async function cancelPromptCommand(client: Client, workflowId: string, io: Io): Promise<number> {
  await cancelPrompt(client, workflowId);
  io.stdout.write(`cancellation requested for ${workflowId}\n`);
  return 0;
}
