/**
 * `durable-agent acp`: the agent side of the Agent Client Protocol on standard input and output,
 * for an editor that starts it as a child process. Standard output carries only the protocol's
 * messages (logs and warnings go to stderr). The server and a worker live outside this process
 * (a running one, or the background server `run --detach` starts), so a prompt goes on when the
 * editor closes.
 */
import { Readable, Writable } from 'node:stream';
import { ndJsonStream } from '@agentclientprotocol/sdk';
import { AgentClient } from '../client';
import type { Config } from '../config';
import { hasApiKey } from '../model/api-key';
import type { Logger } from '../logger';
import { startBackgroundServer } from '../cli/background';
import { packageVersion } from '../cli/bare-command';
import { openRuntime } from '../cli/runtime';
import { acpAgent } from './agent';

export async function acpCommand(config: Config, logger: Logger): Promise<number> {
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
    }).connect(stream);
    await connection.closed;
    return 0;
  } finally {
    await runtime.stop();
  }
}
