import type { Command } from 'commander';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { answerQuestion, promptState, type Client } from '../client';
import type { QuestionAnswerPayload } from '../core/questions';
import { withClient } from './connect';
import { InputError } from './exit-codes';
import { noAnswerError } from './no-answer';
import type { Io } from './output';

type Setup = () => { config: Config; logger: Logger };

interface AnswerOptions {
  answer: string[];
  dismiss?: boolean;
}

/** `answer ID [CALL_ID] --answer TEXT ... | --dismiss`: the reply to an `ask_user` question, sent as an update. */
export function addAnswer(program: Command, setup: Setup, io: Io): void {
  program
    .command('answer')
    .argument('<id>')
    .argument('[callId]')
    .option('--answer <text>', 'the answer to the next question, in order (repeat for each)', collect, [])
    .option('--dismiss', 'decline to answer; the agent is told so')
    .description('answer the questions an ask_user call is waiting on')
    .action(async (id: string, callId: string | undefined, o: AnswerOptions) => {
      process.exitCode = await withClient(setup(), (client) => answerCommand(client, id, callId, o, io));
    });
}

export async function answerCommand(
  client: Client,
  workflowId: string,
  callId: string | undefined,
  options: AnswerOptions,
  io: Io,
): Promise<number> {
  if (options.dismiss && options.answer.length > 0) throw new InputError('give --answer or --dismiss, not both');
  if (!options.dismiss && options.answer.length === 0)
    throw new InputError('give --answer TEXT once per question, in order, or --dismiss');
  const target = callId ?? (await onlyQuestion(client, workflowId));
  const payload: QuestionAnswerPayload = options.dismiss
    ? { callId: target, dismissed: true }
    : { callId: target, answers: options.answer };
  io.stdout.write(`${await answerQuestion(client, workflowId, payload)}\n`);
  return 0;
}

async function onlyQuestion(client: Client, workflowId: string): Promise<string> {
  const status = await promptState(client, workflowId);
  if (!status) throw await noAnswerError(client, workflowId);
  const waiting = status.pendingQuestions ?? [];
  if (waiting.length === 1) return waiting[0].callId;
  if (waiting.length === 0) throw new InputError(`prompt ${workflowId} has no question awaiting an answer`);
  throw new InputError(
    `prompt ${workflowId} has ${waiting.length} questions awaiting an answer; name one: ` +
      `${waiting.map((q) => q.callId).join(', ')}`,
  );
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
