import type { Command } from 'commander';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { Client } from '../client';
import { sessionStatusText } from './chat-status';

/**
 * `durable-agent acp`: serves an editor over the Agent Client Protocol on stdin/stdout. Loaded only
 * when asked for, so other commands never load the ACP library.
 */
export function addAcp(
  program: Command,
  setup: (level?: Config['logLevel']) => { config: Config; logger: Logger },
): void {
  program
    .command('acp')
    .description('serve an editor over the Agent Client Protocol on stdin/stdout (also --acp, --experimental-acp)')
    // An editor set up for Gemini CLI may pass its other flags too: the editor chooses mode and model per session.
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async () => {
      const { config, logger } = setup('warn');
      const { acpCommand } = await import('../acp/command');
      // The editor's `/status` reads as the chat's.
      const statusText = (client: Client, id: string, started: boolean) => sessionStatusText({ client, id, started });
      process.exitCode = await acpCommand(config, logger, statusText);
    });
}
