/**
 * `durable-agent acp`: the agent side of the Agent Client Protocol on standard input and output,
 * for an editor that starts it as a child process. Standard output carries only the protocol's
 * messages (logs and warnings go to stderr). The server and a worker live outside this process
 * (a running one, or the background server `run --detach` starts), so a prompt goes on when the
 * editor closes.
 */
import { Readable, Writable } from 'node:stream';
import { ndJsonStream } from '@agentclientprotocol/sdk';
import { AgentClient, type Client } from '../client';
import type { Config } from '../config';
import { hasApiKey } from '../model/api-key';
import type { Logger } from '../logger';
import { openRuntime, startBackgroundServer } from '../runtime';
import { packageVersion } from '../runtime/self-command';
import { acpAgent } from './agent';

/** `statusText`: `/status`'s text, given by the program that starts the editor front end (the chat's own). */
export async function acpCommand(
  config: Config,
  logger: Logger,
  statusText: (client: Client, sessionId: string, started: boolean) => Promise<string>,
): Promise<number> {
  await startBackgroundServer(config, undefined, logger);
  const runtime = await openRuntime(config, { worker: 'auto', logger, uiEnabled: false });
  try {
    const warnings = { stderr: process.stderr };
    const client = new AgentClient(runtime.client, { config, taskQueue: runtime.taskQueue, logger, warnings });
    const stream = ndJsonStream(
      Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
      Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
    );
    const connection = acpAgent({
      client,
      logger,
      version: packageVersion(),
      hasApiKey: () => hasApiKey(config),
      statusText: (sessionId, started) => statusText(runtime.client, sessionId, started),
    }).connect(stream);
    await connection.closed;
    return 0;
  } finally {
    await runtime.stop();
  }
}
