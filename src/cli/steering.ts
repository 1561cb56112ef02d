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
import { positiveInt } from './arguments';
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
    .option('--add <tokens>', 'raise the token budget by this many tokens', positiveInt)
    .option('--stop', 'end the prompt as it stands')
    .description('answer a prompt paused on a spent token budget')
    .action(async (id: string, o: { add?: number; stop?: boolean }) => {
      if (!o.add === !o.stop) throw new InputError('give exactly one of --add TOKENS and --stop');
      const payload: BudgetAnswer = o.add ? { tokens: o.add } : 'stop';
      process.exitCode = await sendSignal(setup(), id, 'budget answer sent', io, (c) => topUpBudget(c, id, payload));
    });
}

/** `send`: a message for the session's queue, or with `--steer` for its running prompt. */
function addSend(program: Command, setup: Setup, io: Io): void {
  program
    .command('send')
    .argument('<sessionId>')
    .argument('<message>')
    .option('--steer', 'deliver it to the running prompt, with its next model request, instead of queueing it')
    .description('add a message to a session; it runs as the session’s next prompt (prints its id)')
    .action(async (sessionId: string, message: string, o: { steer?: boolean }) => {
      if (!message.trim()) throw new InputError('the message is empty');
      checkPayloadSize('the message', message, LARGE_TEXT_HINT);
      const ctx = setup();
      process.exitCode = await withClient(ctx, async (client) => {
        io.stdout.write(`${await sendMessage(client, ctx.config, sessionId, message, o.steer)}\n`);
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
