import {
  chatCommandText,
  closeSession,
  describeExecution,
  promptStatus,
  sendToSession,
  WorkflowNotFoundError,
  type Client,
} from '../client';
import type { AgentEvent } from '../core/events';
import type { TranscriptStore } from '../store/types';
import { approvalHint } from './approval-hint';
import { questionHint } from '../runtime/question-hint';
import { InputError } from './exit-codes';
import { createApprovalHandler } from './interactive-approval';
import { printFollowed } from './follow';
import { createPrinter, type Io } from './output';
import type { SessionInput } from '../workflows/api';
import { sessionStatusText } from './chat-status';

/** What `chat` needs to talk to its session. */
export interface ChatSession {
  client: Client;
  id: string;
  taskQueue: string;
  /** Settings a new session starts with; the first message starts it (update-with-start). Unset once it exists. */
  defaults?: SessionInput['defaults'];
  /** `--max-cost`: the session's spending limit, sent with the first message (unset once sent). */
  maxCostUsd?: number;
  /** The workspace as seen from here, for approval previews. */
  workspace: string;
  model: string;
  io: Io;
  /** Approvals are asked in place (a terminal); otherwise the hint to answer them elsewhere is printed. */
  interactive: boolean;
  store?: TranscriptStore;
  /** Where live model output is read from (the agent's home or the PostgreSQL store). */
  config: { home: string; storeUrl?: string };
}

/** The chat's input line, handed to an approval menu while a call of the followed prompt awaits one. */
export interface InputControl {
  suspend(): void;
  resume(): void;
}

const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/;

/** Refuses an id a session should not have (checked before anything is started). */
export function checkSessionId(id: string): void {
  if (!SESSION_ID.test(id))
    throw new InputError(
      `bad session id ${JSON.stringify(id)}: use up to 200 letters, digits, '.', '_', ':' or '-', starting with a ` +
        `letter or digit`,
    );
}

/** Whether `id` names a session to resume (true) or one to create (false); refuses anything else. */
export async function existingSession(client: Client, id: string): Promise<boolean> {
  checkSessionId(id);
  const description = await describeExecution(client, id).catch((err) => {
    if (err instanceof WorkflowNotFoundError) return undefined;
    throw err;
  });
  if (!description) return false;
  if (description.type !== 'agentSessionWorkflow')
    throw new InputError(`${id} is a prompt, not a session: choose another id`);
  if (description.status !== 'RUNNING')
    throw new InputError(
      `session ${id} is ${description.status.toLowerCase()}: its conversation is over, start another with a new id`,
    );
  return true;
}

/** Sends a message (or, with `steer`, hands it to the running prompt) and returns the prompt id it went to. */
export async function sendChatMessage(s: ChatSession, text: string, steer = false): Promise<string> {
  const { taskQueue, defaults, maxCostUsd } = s;
  const id = await sendToSession(s.client, s.id, text, { taskQueue, defaults, steer, maxCostUsd });
  s.defaults = undefined;
  s.maxCostUsd = undefined;
  return id;
}

/** `/status`: the session, its running prompt with the calls that wait and how to answer them, its tokens. */
export async function printSessionStatus(s: ChatSession): Promise<void> {
  s.io.stderr.write(await sessionStatusText({ client: s.client, id: s.id, started: !s.defaults }));
}

/** `/clear` and `/compress`, once the session is idle. */
export async function runChatCommand(
  s: ChatSession,
  command: 'clear' | 'compress',
  idle: Promise<void>,
): Promise<void> {
  await idle;
  s.io.stderr.write(`${await chatCommandText(s.client, { id: s.id, started: !s.defaults }, command)}\n`);
}

export async function closeChatSession(s: ChatSession): Promise<void> {
  await closeSession(s.client, s.id);
}

/**
 * Prints one prompt's events and outcome as `run` does, asking approvals in place on a terminal
 * (the chat's input is suspended meanwhile). Returns early, printing no outcome, when `signal` aborts.
 */
export async function followChatPrompt(
  s: ChatSession,
  promptId: string,
  signal: AbortSignal,
  input: InputControl,
): Promise<void> {
  const { io } = s;
  const printer = createPrinter('text', io, promptId, s.model);
  const approvals = s.interactive
    ? createApprovalHandler({
        client: s.client,
        workflowId: promptId,
        workspace: s.workspace,
        store: s.store,
        input: process.stdin,
        output: io.stderr,
      })
    : undefined;
  const waiting = new Set<string>();
  const onEvent = (event: AgentEvent) => {
    if (event.type === 'question_asked') io.stderr.write(questionHint(promptId, event.callId, event.questions));
    if (event.type === 'tool_call_awaiting_approval') {
      if (!approvals) return void io.stderr.write(approvalHint(promptId, event.callId, event.name, event.args));
      if (waiting.size === 0) input.suspend();
      waiting.add(event.callId);
    }
    approvals?.onEvent(event);
    if (event.type === 'tool_call_response' && waiting.delete(event.callId) && waiting.size === 0) input.resume();
  };
  try {
    await printFollowed(s.config, s.client, promptId, printer, onEvent, signal);
    await approvals?.close();
    if (signal.aborted) return;
    const report = await promptStatus(s.client, promptId);
    printer.finish(report);
    if (report.status === 'completed' || report.status === 'cancelled') return;
    const error = report.error ? `: ${report.error.type}: ${report.error.message}` : '';
    io.stderr.write(`[${promptId} ${report.status}${error}]\n`);
  } finally {
    await approvals?.close();
    if (waiting.size > 0) input.resume();
  }
}
