import type { Command } from 'commander';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { answerQuestion, promptState, type Client } from '../client';
import type { QuestionAnswerPayload } from '../core/questions';
import { withClient } from './connect';
import { InputError } from './exit-codes';
import { noAnswerError } from './no-answer';
import type { Io } from './output';
import { selfCommand } from '../runtime/self-command';

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

/** What to type, from any shell, to answer an `ask_user` call: the questions, then the commands. */
export function questionHint(workflowId: string, callId: string, questions: unknown): string {
  const list = Array.isArray(questions) ? (questions as QuestionView[]) : [];
  const example = JSON.stringify({ callId, answers: list.map(() => '...') });
  return [
    `? the agent asks (call ${callId}):`,
    ...list.flatMap((q, i) => describeQuestion(q, i).map((line) => `  ${line}`)),
    `  answer:  ${selfCommand()} answer ${workflowId} ${callId} ${list.map(() => "--answer '...'").join(' ')}`,
    `  decline: ${selfCommand()} answer ${workflowId} ${callId} --dismiss`,
    `  or:      temporal workflow signal --workflow-id ${workflowId} --name answerQuestion --input '${example}'`,
    '',
  ].join('\n');
}

interface QuestionView {
  question?: string;
  header?: string;
  type?: string;
  options?: { label?: string; description?: string }[];
  multiSelect?: boolean;
}

/** One question as lines: its number, header and text, then its options. */
export function describeQuestion(q: QuestionView, index: number): string[] {
  const kind = q.type === 'yesno' ? ' (yes/no)' : q.multiSelect ? ' (one or more, comma-separated)' : '';
  const lines = [`${index}. ${q.header ? `[${q.header}] ` : ''}${q.question ?? ''}${kind}`];
  for (const option of q.options ?? [])
    lines.push(`   - ${option.label ?? ''}${option.description ? `: ${option.description}` : ''}`);
  return lines;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
