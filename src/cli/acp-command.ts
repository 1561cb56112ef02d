import type { Command } from 'commander';
import type { Config } from '../config';
import type { Logger } from '../logger';

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
      process.exitCode = await (await import('../acp/command')).acpCommand(config, logger);
    });
}
