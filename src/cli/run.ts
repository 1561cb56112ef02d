import {
  buildPromptInput,
  cancelPrompt,
  launchPrompt,
  newPromptId,
  openArgsStore,
  promptStatus,
  sessionOf,
  type PromptInput,
  type PromptRequest,
} from '../client';
import type { Config } from '../config';
import type { AgentEvent } from '../core/events';
import type { TranscriptStore } from '../store/types';
import type { Logger } from '../logger';
import { exitCodeFor, EXIT } from './exit-codes';
import { printFollowed } from './follow';
import { createPrinter, type Io, type OutputFormat } from './output';
import { openRuntime, type AgentRuntime } from '../runtime';
import { reportLeftRunning, SIGNAL_EXIT, watchStopSignals, type StopWatch } from './run-signals';
import { startBackgroundServer } from '../runtime/background';
import { approvalHint } from './approval-hint';
import { questionHint } from '../runtime/question-hint';
import { createQuestionHandler } from './interactive-question';
import { createApprovalHandler } from './interactive-approval';
import { scriptedSessionQueue } from './resume';
import { noticeUnservedHost } from './host-notice';

/** `run`'s request: the prompt's, and how its output is printed. */
export interface RunOptions extends PromptRequest {
  output: OutputFormat;
}

/** `durable-agent run`: starts a prompt workflow and follows it to its end (or detaches). */
export async function runCommand(config: Config, given: RunOptions, io: Io, logger: Logger): Promise<number> {
  const unattended = given.detach || !atTerminal(given);
  const built = await buildPromptInput(config, { ...given, unattended }, io, logger);
  const { input } = built;
  const options: RunOptions = { ...given, ...built.request };
  const workflowId = newPromptId();
  if (options.detach) return runDetached(config, options, input, workflowId, io, logger);
  const stops = watchStopSignals();
  const session = sessionOf(options, input.workspace);
  try {
    const runtime = await openRuntime(config, {
      fakeResponses: options.fakeResponses,
      worker: 'auto',
      privateQueueForFake: true,
      leaveServer: true,
      queueToAdopt: async (client) => scriptedSessionQueue(client, config, await session(client)),
      logger,
    });
    try {
      if (stops.received()) {
        io.stderr.write(`${stops.received()}: stopped before the prompt started\n`);
        return SIGNAL_EXIT[stops.received()!];
      }
      const resolved = { ...options, session: await session(runtime.client) };
      return await runAttached(config, resolved, input, { runtime, stops, io }, workflowId);
    } finally {
      await runtime.stop();
    }
  } finally {
    stops.dispose();
  }
}

/** Starts the prompt here and follows it; on SIGTERM/SIGHUP leaves it running (see run-signals). */
async function runAttached(
  config: Config,
  options: RunOptions,
  input: PromptInput,
  ctx: { runtime: AgentRuntime; stops: StopWatch; io: Io },
  id: string,
): Promise<number> {
  const { runtime, stops, io } = ctx;
  const where = { taskQueue: runtime.taskQueue, workflowId: id };
  const workflowId = await launchPrompt(runtime.client, input, options.session, where);
  stops.onInterrupt(() => void cancelPrompt(runtime.client, workflowId).catch(() => undefined));
  if (options.output === 'text')
    io.stderr.write(`prompt ${workflowId} started\n${webUiLine(config, runtime, workflowId)}`);
  const printer = createPrinter(options.output, io, workflowId, options.model);
  const argsStore = openArgsStore(config);
  const { approvals, onEvent } = approvalsFor(options, runtime, workflowId, input.workspace, argsStore.store, io);
  const hostWatch = { client: runtime.client, taskQueue: runtime.taskQueue, workflowId, host: input.host! };
  const stopHostNotice = noticeUnservedHost(config, hostWatch, io);
  try {
    await printFollowed(config, runtime.client, workflowId, printer, onEvent, stops.detach);
    stopHostNotice();
    await approvals?.close();
    const signal = stops.received();
    if (signal && signal !== 'SIGINT') {
      reportLeftRunning(io, signal, workflowId, runtime, !!options.fakeResponses);
      return SIGNAL_EXIT[signal];
    }
    const report = await promptStatus(runtime.client, workflowId);
    printer.finish(report);
    return signal === 'SIGINT' ? EXIT.cancelled : exitCodeFor(report);
  } finally {
    stopHostNotice();
    await approvals?.close();
    await argsStore.close();
  }
}

/** On a terminal, calls awaiting approval are asked about in place; otherwise `run` says how to answer them. */
function approvalsFor(
  options: RunOptions,
  runtime: AgentRuntime,
  workflowId: string,
  workspace: string,
  store: TranscriptStore,
  io: Io,
) {
  const interactive = atTerminal(options);
  const approvals = interactive
    ? createApprovalHandler({
        client: runtime.client,
        workflowId,
        workspace,
        store,
        input: process.stdin,
        output: io.stderr,
      })
    : undefined;
  const questions = interactive
    ? createQuestionHandler({ client: runtime.client, workflowId, input: process.stdin, output: io.stderr })
    : undefined;
  const onEvent = (event: AgentEvent) => {
    if (event.type === 'question_asked') io.stderr.write(questionHint(workflowId, event.callId, event.questions));
    questions?.onEvent(event);
    if (approvals) approvals.onEvent(event);
    else if (event.type === 'tool_call_awaiting_approval')
      io.stderr.write(approvalHint(workflowId, event.callId, event.name, event.args));
  };
  const close = async () => void (await Promise.all([approvals?.close(), questions?.close()]));
  return { approvals: interactive ? { close } : undefined, onEvent };
}

/** A person follows the run in this terminal: approvals and questions are asked in place. */
function atTerminal(options: RunOptions): boolean {
  return !!process.stdin.isTTY && !!process.stdout.isTTY && options.output === 'text';
}

/** Starts the prompt and prints its id alone on stdout; a background server is started if needed. */
async function runDetached(
  config: Config,
  options: RunOptions,
  input: PromptInput,
  workflowId: string,
  io: Io,
  logger: Logger,
): Promise<number> {
  await startBackgroundServer(config, options.fakeResponses, logger);
  const runtime = await openRuntime(config, { worker: 'never', embed: false, logger });
  try {
    const session = await sessionOf(options, input.workspace)(runtime.client);
    io.stdout.write(
      `${await launchPrompt(runtime.client, input, session, { taskQueue: config.taskQueue, workflowId })}\n`,
    );
    io.stderr.write(detachedNextSpeakerNote(options));
    return EXIT.ok;
  } finally {
    await runtime.stop();
  }
}

/** `Web UI: URL`: the prompt's page in the Web UI of the dev server this run started, when it has one. */
function webUiLine(config: Config, runtime: AgentRuntime, workflowId: string): string {
  if (!runtime.uiUrl) return '';
  const namespace = encodeURIComponent(config.temporalNamespace);
  return `Web UI: ${runtime.uiUrl}/namespaces/${namespace}/workflows/${encodeURIComponent(workflowId)}\n`;
}

/**
 * A detached prompt checks, after an answer without tool calls, whether the model meant to go on
 * (nobody is there to say "go on"). Said on stderr when the user did not choose, since each check
 * is a model call that a `--fake-responses` script must answer too.
 */
export function detachedNextSpeakerNote(o: { nextSpeakerCheck?: boolean }): string {
  if (o.nextSpeakerCheck !== undefined) return '';
  return (
    'durable-agent: detached, so the next-speaker check is on: after an answer without tool calls a fast model ' +
    'is asked whether the agent meant to go on (--no-next-speaker-check turns it off)\n'
  );
}
