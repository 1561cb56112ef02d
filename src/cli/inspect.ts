import {
  confirmToolCall,
  decideLoop,
  promptState,
  promptStatus,
  promptsAwaitingApproval,
  type Client,
  type ToolConfirmation,
} from '../client';
import { exitCodeFor, InputError } from './exit-codes';
import { noAnswerError } from './no-answer';
import type { Config } from '../config';
import { printFollowed } from './follow';
import { createPrinter, type Io, type OutputFormat, type Printer } from './output';
import { openArgsStore, withFullPendingArgs } from '../client/full-args';
import type { LoopDecision } from '../workflows/api';
import { questionHint } from '../runtime/question-hint';
import { costLines, formatStatus } from './status-text';
import { approvalHint } from './approval-hint';

type StoreConfig = Pick<Config, 'home' | 'storeUrl'>;

/** `status ID [--json]`; the arguments of calls awaiting approval are shown in full (see full-args). */
export async function statusCommand(
  client: Client,
  config: StoreConfig,
  workflowId: string,
  json: boolean,
  io: Io,
): Promise<number> {
  const report = await promptStatus(client, workflowId);
  if (report.error?.type === 'NoWorker') report.error.message = (await noAnswerError(client, workflowId)).message;
  const args = openArgsStore(config);
  try {
    report.pendingApprovals = await withFullPendingArgs(report.pendingApprovals, args.store);
  } finally {
    await args.close();
  }
  io.stdout.write(json ? `${JSON.stringify(report, null, 2)}\n` : formatStatus(report));
  return 0;
}

/** `watch ID`: every event from the start, then the outcome; exits as `run` would. */
export async function watchCommand(
  client: Client,
  config: Config,
  workflowId: string,
  format: OutputFormat,
  io: Io,
): Promise<number> {
  const printer = withHints(createPrinter(format, io, workflowId), format, workflowId, io);
  await printFollowed(config, client, workflowId, printer);
  const report = await promptStatus(client, workflowId);
  printer.finish(report);
  return exitCodeFor(report);
}

/**
 * In text, a call awaiting approval and a question the prompt waits on are shown with the commands
 * that answer them, as `run` shows them (the other formats carry them in their own events).
 */
function withHints(printer: Printer, format: OutputFormat, workflowId: string, io: Io): Printer {
  if (format !== 'text') return printer;
  return {
    ...printer,
    event(e) {
      if (e.type === 'question_asked') io.stderr.write(questionHint(workflowId, e.callId, e.questions));
      if (e.type === 'tool_call_awaiting_approval') io.stderr.write(approvalHint(workflowId, e.callId, e.name, e.args));
      printer.event(e);
    },
  };
}

/**
 * `pending [ID]`: calls awaiting approval, questions awaiting an answer and pauses on the spending limit, in one prompt
 * or in every running one.
 */
export async function pendingCommand(
  client: Client,
  config: StoreConfig,
  workflowId: string | undefined,
  io: Io,
): Promise<number> {
  const ids = workflowId ? [workflowId] : await promptsAwaitingApproval(client);
  const args = openArgsStore(config);
  let count = 0;
  try {
    for (const id of ids) {
      const status = await promptState(client, id);
      if (!status && workflowId) throw await noAnswerError(client, id);
      if (!status) {
        count += 1;
        io.stdout.write(`${id}  (${(await noAnswerError(client, id)).message})\n`);
      }
      for (const call of await withFullPendingArgs(status?.pendingApprovals ?? [], args.store)) {
        count += 1;
        io.stdout.write(`${id}  ${call.callId}  ${call.name}  ${JSON.stringify(call.args)}\n`);
      }
      const paused = status?.costLimit?.nextRequestUsd !== undefined ? costLines({ workflowId: id, ...status }) : [];
      if (paused.length > 0) count += 1;
      if (paused.length > 0) io.stdout.write(`${id}  spending limit\n${paused.join('\n')}\n`);
      for (const question of status?.pendingQuestions ?? []) {
        count += 1;
        io.stdout.write(
          `${id}  ${question.callId}  ask_user\n${questionHint(id, question.callId, question.questions)}`,
        );
      }
    }
  } finally {
    await args.close();
  }
  if (count === 0) io.stdout.write('nothing awaits approval, an answer or a top-up\n');
  return 0;
}

/**
 * `approve` / `deny`: sent as the `confirmToolCall` update, whose validator answers at once when the
 * call is unknown or already decided. Without CALL_ID, the prompt's only pending call is meant.
 */
export async function confirmCommand(
  client: Client,
  workflowId: string,
  callId: string | undefined,
  confirmation: Omit<ToolConfirmation, 'callId'>,
  io: Io,
): Promise<number> {
  const target = callId ?? (await onlyPendingCall(client, workflowId));
  const answer = await confirmToolCall(client, workflowId, { ...confirmation, callId: target }).catch(
    async (err: unknown) => {
      // An update to an ended prompt fails as "not found": say that it has ended instead.
      const why = await noAnswerError(client, workflowId).catch(() => undefined);
      throw why instanceof InputError ? why : err;
    },
  );
  io.stdout.write(`${answer}\n`);
  return 0;
}

async function onlyPendingCall(client: Client, workflowId: string): Promise<string> {
  const status = await promptState(client, workflowId);
  if (!status) throw await noAnswerError(client, workflowId);
  const pending = status.pendingApprovals;
  if (pending.length === 1) return pending[0].callId;
  if (pending.length === 0) throw new InputError(`prompt ${workflowId} has no call awaiting approval`);
  throw new InputError(
    `prompt ${workflowId} has ${pending.length} calls awaiting approval; name one: ` +
      `${pending.map((p) => p.callId).join(', ')}`,
  );
}

/** `loop ID continue|disable|stop`: the answer to a prompt paused on a detected loop. */
export async function loopDecisionCommand(
  client: Client,
  workflowId: string,
  action: LoopDecision,
  io: Io,
): Promise<number> {
  const status = await promptState(client, workflowId);
  if (status && status.phase !== 'loop_detected')
    throw new InputError(`prompt ${workflowId} is not paused on a loop (it is ${status.phase})`);
  await decideLoop(client, workflowId, action);
  io.stdout.write(`${action} sent to ${workflowId}\n`);
  return 0;
}
