import { randomBytes } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { cancelPrompt, hasAgentSearchAttributes, promptStatus, sendToSession, startPrompt } from '../client';
import type { Config } from '../config';
import { geminiApiKey } from '../gemini-key';
import { loadRunPolicies } from './policies';
import { loadRunAgents } from './agents';
import { loadRunHooks } from './settings';
import type { ApprovalMode } from '../core/types';
import type { Logger } from '../logger';
import type { PromptInput } from '../workflows/messages';
import { exitCodeFor, EXIT, InputError } from './exit-codes';
import { followPrompt } from './follow';
import { promptInput } from './prompt-input';
import { createPrinter, type Io, type OutputFormat } from './output';
import { openRuntime, type FakeResponses } from './runtime';
import { startBackgroundServer } from './background';
import { approvalHint } from './approval-hint';
import { openArgsStore } from './full-args';
import { createApprovalHandler, type ApprovalHandler } from './interactive-approval';

export interface RunOptions {
  prompt: string;
  workspace: string;
  approvalMode: ApprovalMode;
  model: string;
  maxTurns: number;
  detach: boolean;
  output: OutputFormat;
  fakeResponses?: FakeResponses;
  shellTimeoutSeconds?: number;
  approvalTimeoutSeconds?: number;
  /** Extra policy files, read at the user tier (Gemini CLI's --policy). */
  policyFiles?: string[];
  /** false turns loop detection off for this prompt. */
  loopDetection?: boolean;
  /** Unset: on for detached runs (nobody is there to say "go on"), off for followed ones. */
  nextSpeakerCheck?: boolean;
  maxTokens?: number;
  /** Run the prompt as the next message of this session (created on first use). */
  session?: string;
}

export const DEFAULT_MODEL = 'gemini-2.5-pro';

/** `durable-agent run`: starts a prompt workflow and follows it to its end (or detaches). */
export async function runCommand(config: Config, options: RunOptions, io: Io, logger: Logger): Promise<number> {
  const input = promptInput(options);
  input.policyRules = await loadRunPolicies(config, input.workspace, options.policyFiles ?? [], io);
  input.agents = await loadRunAgents(config, input.workspace, io);
  input.hooks = await loadRunHooks(config, input.workspace);
  if (!options.fakeResponses) geminiApiKey(config);
  let workflowId = newPromptId();
  if (options.detach) return runDetached(config, options, input, workflowId, io, logger);
  const runtime = await openRuntime(config, { fakeResponses: options.fakeResponses, worker: 'auto', privateQueueForFake: true, logger });
  const controller = new AbortController();
  let interrupted = false;
  const onSigint = () => {
    interrupted = true;
    controller.abort();
    void cancelPrompt(runtime.client, workflowId).catch(() => undefined);
  };
  process.once('SIGINT', onSigint);
  let approvals: ApprovalHandler | undefined;
  const argsStore = openArgsStore(config);
  try {
    workflowId = await launch(runtime.client, input, options.session, { taskQueue: runtime.taskQueue, workflowId });
    if (options.output === 'text') io.stderr.write(`prompt ${workflowId} started\n`);
    const printer = createPrinter(options.output, io, workflowId, options.model);
    // On a terminal, calls awaiting approval are asked about in place; otherwise `run` says how to answer them.
    const interactive = process.stdin.isTTY && process.stdout.isTTY && options.output === 'text';
    if (interactive) {
      approvals = createApprovalHandler({ client: runtime.client, workflowId, workspace: input.workspace, store: argsStore.store, input: process.stdin, output: io.stderr });
    }
    await followPrompt(config, runtime.client, workflowId, printer, (event) => {
      if (approvals) approvals.onEvent(event);
      else if (event.type === 'tool_call_awaiting_approval') io.stderr.write(approvalHint(workflowId, event.callId, event.name, event.args));
    });
    await approvals?.close();
    const report = await promptStatus(runtime.client, workflowId);
    printer.finish(report);
    return interrupted ? EXIT.cancelled : exitCodeFor(report);
  } finally {
    process.removeListener('SIGINT', onSigint);
    await approvals?.close();
    await argsStore.close();
    await runtime.stop();
  }
}

/** Starts the prompt and prints its id alone on stdout; a background server is started if needed. */
async function runDetached(config: Config, options: RunOptions, input: PromptInput, workflowId: string, io: Io, logger: Logger): Promise<number> {
  await startBackgroundServer(config, options.fakeResponses, logger);
  const runtime = await openRuntime(config, { worker: 'never', embed: false, logger });
  try {
    io.stdout.write(`${await launch(runtime.client, input, options.session, { taskQueue: config.taskQueue, workflowId })}\n`);
    return EXIT.ok;
  } finally {
    await runtime.stop();
  }
}

/**
 * Starts the prompt, or adds it to a session (which runs it as a child prompt when its turn comes);
 * returns the prompt's workflow id.
 */
async function launch(client: Client, input: PromptInput, session: string | undefined, options: { taskQueue: string; workflowId: string }): Promise<string> {
  if (!session) return (await startPrompt(client, input, options)).workflowId;
  const { prompt, ...defaults } = input;
  try {
    return await sendToSession(client, session, prompt, { taskQueue: options.taskQueue, defaults: { ...defaults, searchAttributes: await hasAgentSearchAttributes(client) } });
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) throw new InputError(`session ${session} is closed: its conversation is over, start another with a new id`);
    throw err;
  }
}

/** Sortable by start time and unique without coordination. */
export function newPromptId(): string {
  const stamp = new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return `prompt-${stamp}-${randomBytes(3).toString('hex')}`;
}
