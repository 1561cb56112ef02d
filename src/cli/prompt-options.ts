import { Option, type Command } from 'commander';
import { DEFAULT_MAX_TURNS } from '../client';
import { APPROVAL_MODES } from '../core/types';
import { positiveInt, positiveNumber, usdAmount } from './arguments';
import { DEFAULT_MODEL } from '../core/models';
import { hostOption } from './host-options';

/**
 * The options every command that starts prompts takes (`run`, `chat`), written once so their names,
 * defaults and checks cannot drift apart. `each` says what the turn limit counts ("this prompt").
 */
export function addPromptOptions(command: Command, each: string): Command {
  return command
    .option('-w, --workspace <dir>', 'workspace the tools are confined to', process.cwd())
    .addOption(
      new Option('--approval-mode <mode>', 'which tool calls need approval')
        .choices([...APPROVAL_MODES])
        .default('default'),
    )
    .option('-m, --model <model>', 'Gemini model', DEFAULT_MODEL)
    .option('--max-turns <n>', `model turns allowed for ${each}`, positiveInt, DEFAULT_MAX_TURNS)
    .option(
      '--max-session-turns <n>',
      'model turns allowed for the whole session, its prompts together (default: no limit; set when it starts)',
      positiveInt,
    )
    .option(
      '--max-cost <usd>',
      'spending limit in US dollars; a request that could pass it waits for a top-up (in a session: shared)',
      usdAmount,
    )
    .option('--shell-timeout <seconds>', 'timeout of each shell command', positiveNumber)
    .option(
      '--approval-timeout <seconds>',
      'deny a call not approved within this time (default: wait forever)',
      positiveNumber,
    )
    .option('--fake-responses <file>', 'answer model calls from a script (strict order)')
    .option('--fake-responses-non-strict <file>', 'answer model calls from a script (first line with the method)')
    .option('--policy <file...>', 'extra policy files (TOML), at the user tier')
    .option(
      '--host <name>',
      "the host whose workers hold the workspace and run the tools (default: this machine's)",
      hostOption,
    )
    .option(
      '--trust-workspace',
      "read the workspace's own .durable-agent/ configuration without trusting the folder for good",
    );
}
