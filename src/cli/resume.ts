import { describeExecution, WorkflowNotFoundError, type Client } from '../client';
import type { Config } from '../config';

/**
 * A running session started by an earlier scripted run lives on that run's private task queue
 * (`<queue>-fake-<pid>-<time>`), which nobody polls once the run has exited: a later scripted run
 * of the same session serves that queue instead of a new one, or its message would wait forever.
 */
export async function scriptedSessionQueue(
  client: Client,
  config: Config,
  session: string | undefined,
): Promise<string | undefined> {
  if (!session) return undefined;
  const found = await describeExecution(client, session).catch((err) => {
    if (err instanceof WorkflowNotFoundError) return undefined;
    throw err;
  });
  if (found?.status !== 'RUNNING' || !found.taskQueue.startsWith(`${config.taskQueue}-fake-`)) return undefined;
  return found.taskQueue;
}
