import { describeExecution, type Client } from '../client';
import { InputError } from './exit-codes';
import { selfCommand } from '../runtime/self-command';

/**
 * Why a prompt's query got no answer. An ended prompt is bad input (exit 42): nothing awaits a
 * decision any more. A running one has no live worker on its task queue (the server lists a killed
 * worker as a poller for minutes, so that list cannot tell), and the hint names that queue: a
 * scripted prompt's private queue is served by nothing a plain `server` starts.
 */
export async function noAnswerError(client: Client, workflowId: string): Promise<Error> {
  const found = await describeExecution(client, workflowId);
  if (found.status !== 'RUNNING') {
    return new InputError(
      `prompt ${workflowId} has ended (${found.status.toLowerCase()}): nothing awaits approval or an answer`,
    );
  }
  return new Error(
    `no worker answered for prompt ${workflowId} on task queue ${found.taskQueue}; ${serveHint(found.taskQueue)}`,
  );
}

/** The command that serves `taskQueue`: with a script for the private queue of a scripted prompt. */
export function serveHint(taskQueue: string): string {
  const scripted = /-fake-/.test(taskQueue) ? ' --fake-responses FILE' : '';
  return `if none runs, start one with: DURABLE_AGENT_TASK_QUEUE=${taskQueue} ${selfCommand()} server${scripted}`;
}
