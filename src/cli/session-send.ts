import { describeExecution, sendToSession, sessionStatus, WorkflowNotFoundError, type Client } from '../client';
import type { Config } from '../config';
import { serveHint } from './no-answer';
import { selfCommand } from '../runtime/self-command';

/**
 * `send`: the message goes to the session only when a worker answers for it. An update waits for
 * a worker without limit, so a session on a queue nobody polls (a scripted run's private queue,
 * once that run has exited) would hang `send` with no word; a query, bounded, asks first. A
 * session that is not running is left to the update, which says why it refuses.
 */
export async function sendMessage(
  client: Client,
  config: Config,
  sessionId: string,
  message: string,
  options: { steer?: boolean; maxCostUsd?: number } = {},
): Promise<string> {
  const found = await describeExecution(client, sessionId).catch((err) => {
    if (err instanceof WorkflowNotFoundError) return undefined;
    throw err;
  });
  if (found?.status === 'RUNNING' && !(await sessionStatus(client, sessionId))) {
    throw new Error(
      `no worker serves session ${sessionId} (task queue ${found.taskQueue}): the message was not sent. ` +
        unservedHint(config, sessionId, found.taskQueue),
    );
  }
  return sendToSession(client, sessionId, message, { taskQueue: config.taskQueue, ...options });
}

/** A scripted session is served again by a scripted run of it, which adopts its queue. */
function unservedHint(config: Config, sessionId: string, taskQueue: string): string {
  if (taskQueue.startsWith(`${config.taskQueue}-fake-`))
    return `Its model answers come from a script; send the message with a worker of its own: ${selfCommand()} run --session ${sessionId} --fake-responses FILE 'MESSAGE'`;
  return `${serveHint(taskQueue)}`;
}
