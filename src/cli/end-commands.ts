import type { Command } from 'commander';
import { cancelPrompt, describeExecution, promptState, terminatePrompt, type Client } from '../client';
import { withClient, type Ctx } from './connect';
import { serveHint } from './no-answer';
import type { Io } from './output';
import { selfCommand } from '../runtime/self-command';

/** `cancel ID` and `terminate ID`. */
export function addEndings(program: Command, setup: () => Ctx, io: Io): void {
  program
    .command('cancel')
    .argument('<id>')
    .description('cancel a prompt')
    .action(async (id: string) => {
      process.exitCode = await withClient(setup(), (client) => cancelPromptCommand(client, id, io));
    });
  program
    .command('terminate')
    .argument('<id>')
    .description('end a prompt at once, also with no worker left to serve it (its open calls get no response)')
    .action(async (id: string) => {
      process.exitCode = await withClient(setup(), (client) => terminatePromptCommand(client, id, io));
    });
}

export async function cancelPromptCommand(client: Client, workflowId: string, io: Io): Promise<number> {
  await cancelPrompt(client, workflowId);
  io.stdout.write(`cancellation requested for ${workflowId}\n`);
  if (!(await promptState(client, workflowId))) {
    // The prompt settles its open calls as it ends, which takes a worker of its queue.
    const { taskQueue } = await describeExecution(client, workflowId);
    io.stderr.write(
      `no worker answered on task queue ${taskQueue}: the prompt ends once one serves it (${serveHint(taskQueue)}), ` +
        `or now, without settling its calls: ${selfCommand()} terminate ${workflowId}\n`,
    );
  }
  return 0;
}

/** `terminate ID`: ends a prompt at once, with no worker needed (its open calls get no response). */
export async function terminatePromptCommand(client: Client, workflowId: string, io: Io): Promise<number> {
  await terminatePrompt(client, workflowId);
  io.stdout.write(`terminated ${workflowId}\n`);
  return 0;
}
