import {
  confirmToolCall,
  decideLoop,
  promptState,
  promptStatus,
  promptsAwaitingApproval,
  type Client,
  type StatusReport,
  type ToolConfirmation,
} from '../client';
import { exitCodeFor, InputError } from './exit-codes';
import { noAnswerError } from './no-answer';
import type { Config } from '../config';
import { followPrompt } from './follow';
import { createPrinter, type Io, type OutputFormat, type Printer } from './output';
import { openArgsStore, withFullPendingArgs } from './full-args';
import type { LoopDecision } from '../workflows/api';
import { describeQuestion, questionHint } from './answer';
import type { Topic } from '../tools/update-topic';
import { selfCommand } from './self-command';

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
  const printer = withQuestions(createPrinter(format, io, workflowId), format, workflowId, io);
  await followPrompt(config, client, workflowId, printer);
  const report = await promptStatus(client, workflowId);
  printer.finish(report);
  return exitCodeFor(report);
}

/** In text, a question the prompt waits on is shown with the commands that answer it, as `run` shows it. */
function withQuestions(printer: Printer, format: OutputFormat, workflowId: string, io: Io): Printer {
  if (format !== 'text') return printer;
  return {
    ...printer,
    event(e) {
      if (e.type === 'question_asked') io.stderr.write(questionHint(workflowId, e.callId, e.questions));
      printer.event(e);
    },
  };
}

/** `pending [ID]`: calls awaiting approval and questions awaiting an answer, in one prompt or in every running one. */
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
  if (count === 0) io.stdout.write('nothing awaits approval or an answer\n');
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

function formatStatus(r: StatusReport): string {
  const lines = [`${r.workflowId}: ${r.status}${r.turns !== undefined ? ` after ${r.turns} turn(s)` : ''}`];
  if (r.host)
    lines.push(
      `  host: ${r.host}${r.waitingForHost ? ` (waiting for host ${r.waitingForHost}: no worker of it is up)` : ''}`,
    );
  for (const p of r.pendingApprovals)
    lines.push(`  awaiting approval: ${p.callId} ${p.name} ${JSON.stringify(p.args)}`);
  for (const q of r.pendingQuestions ?? []) {
    const questions = Array.isArray(q.questions) ? q.questions : [];
    lines.push(`  awaiting an answer: ${q.callId} ask_user`);
    lines.push(...questions.flatMap((question, i) => describeQuestion(question, i)).map((line) => `    ${line}`));
    lines.push(`    answer: ${selfCommand()} answer ${r.workflowId} ${q.callId} --answer '...'`);
  }
  if (r.error) lines.push(`  error: ${r.error.type}: ${r.error.message}`);
  if (r.todos?.length) lines.push('  todos:', ...r.todos.map((t) => `    [${t.status}] ${t.description}`));
  if (r.topics?.length) lines.push('  topics:', ...topicLines(r.topics));
  if (r.stats)
    lines.push(`  tokens: ${r.stats.usage.input} in, ${r.stats.usage.output} out, ${r.stats.usage.cached} cached`);
  if (r.response) lines.push('', r.response);
  return `${lines.join('\n')}\n`;
}

/** Each chapter on one line, the current one (last) with its latest intent. */
function topicLines(topics: readonly Topic[]): string[] {
  return topics.map((t, i) => {
    const intent = i === topics.length - 1 ? ` (now: ${t.intent})` : '';
    return `    ${i + 1}. ${t.title || '(untitled)'}${t.summary ? `: ${t.summary}` : ''}${intent}`;
  });
}
