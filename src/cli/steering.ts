import { Argument, type Command } from 'commander';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { withClient } from './connect';
import {
  checkPayloadSize,
  LARGE_TEXT_HINT,
  requestCompression,
  topUpBudget,
  type BudgetAnswer,
  type Client,
} from '../client';
import { InputError } from './exit-codes';
import { loopDecisionCommand } from './inspect';
import { positiveInt, usdAmount } from './arguments';
import type { Io } from './output';
import type { LoopDecision } from '../workflows/api';
import { sendMessage } from './session-send';

type Setup = () => { config: Config; logger: Logger };

/** Commands that steer a running prompt: a flagged loop, compression, a spent token budget. */
export function addSteering(program: Command, setup: Setup, io: Io): void {
  addSend(program, setup, io);
  program
    .command('loop')
    .argument('<id>')
    .addArgument(
      new Argument('<action>', 'go on, go on without loop detection, or stop').choices(['continue', 'disable', 'stop']),
    )
    .description('answer a prompt paused on a detected loop')
    .action(async (id: string, action: string) => {
      const decision = action as LoopDecision;
      process.exitCode = await withClient(setup(), (client) => loopDecisionCommand(client, id, decision, io));
    });
  program
    .command('compress')
    .argument('<id>')
    .description('compress the prompt’s conversation before its next model request')
    .action(async (id: string) => {
      process.exitCode = await sendSignal(setup(), id, 'compression requested', io, (c) => requestCompression(c, id));
    });
  program
    .command('budget')
    .argument('<id>')
    .option('--add-tokens <tokens>', 'raise the token budget (--max-tokens) by this many tokens', positiveInt)
    .option('--add <tokens>', 'the same as --add-tokens', positiveInt)
    .option('--add-usd <usd>', 'raise the spending limit (--max-cost) by this many US dollars', usdAmount)
    .option('--stop', 'end the prompt as it stands')
    .description('answer a prompt paused on a spent token budget or on its spending limit')
    .action(async (id: string, o: BudgetFlags) => {
      const payload = budgetAnswer(o);
      process.exitCode = await sendSignal(setup(), id, 'budget answer sent', io, (c) => topUpBudget(c, id, payload));
    });
}

interface BudgetFlags {
  addTokens?: number;
  add?: number;
  addUsd?: number;
  stop?: boolean;
}

/** The one answer the flags give: tokens, US dollars or stop. */
function budgetAnswer(o: BudgetFlags): BudgetAnswer {
  const tokens = o.addTokens ?? o.add;
  const given = [tokens, o.addUsd, o.stop].filter((v) => v !== undefined);
  if (given.length !== 1 || (o.addTokens !== undefined && o.add !== undefined))
    throw new InputError('give exactly one of --add-tokens TOKENS, --add-usd USD and --stop');
  if (tokens !== undefined) return { tokens };
  return o.addUsd !== undefined ? { usd: o.addUsd } : 'stop';
}

/** `send`: a message for the session's queue, or with `--steer` for its running prompt. */
function addSend(program: Command, setup: Setup, io: Io): void {
  program
    .command('send')
    .argument('<sessionId>')
    .argument('<message>')
    .option('--steer', 'deliver it to the running prompt, with its next model request, instead of queueing it')
    .option(
      '--max-cost <usd>',
      'set the session’s spending limit, shared by its prompts (not below what they spent)',
      usdAmount,
    )
    .description('add a message to a session; it runs as the session’s next prompt (prints its id)')
    .action(async (sessionId: string, message: string, o: { steer?: boolean; maxCost?: number }) => {
      if (!message.trim()) throw new InputError('the message is empty');
      checkPayloadSize('the message', message, LARGE_TEXT_HINT);
      const ctx = setup();
      process.exitCode = await withClient(ctx, async (client) => {
        const options = { steer: o.steer, maxCostUsd: o.maxCost };
        io.stdout.write(`${await sendMessage(client, ctx.config, sessionId, message, options)}\n`);
        return 0;
      });
    });
}

/** Sends one signal to the prompt and says so. */
function sendSignal(
  ctx: ReturnType<Setup>,
  workflowId: string,
  what: string,
  io: Io,
  send: (client: Client) => Promise<void>,
): Promise<number> {
  return withClient(ctx, async (client) => {
    await send(client);
    io.stdout.write(`${what}: ${workflowId}\n`);
    return 0;
  });
}
