/**
 * The agent's client: what every front end (the CLI, an editor over the Agent Client Protocol, a
 * program that installs the package) uses to drive prompts and sessions, with no Temporal call of
 * its own. `AgentClient` holds one connection and the settings a front end runs with; the
 * functions it is built from (./client/) are exported too, for programs written against them.
 */
import { randomBytes } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { Config } from './config';
import type { Warnings } from './config/workspace';
import type { MessageMedia } from './core/media';
import type { QuestionAnswerPayload } from './core/questions';
import { openArgsStore } from './client/full-args';
import type { Logger } from './logger';
import type { SessionInput, ToolConfirmation } from './workflows/api';
import {
  answerQuestion,
  cancelPrompt,
  closeSession,
  confirmToolCall,
  promptsAwaitingApproval,
  sendToSession,
  setApprovalMode,
  terminatePrompt,
} from './client/agent-client';
import { chatCommandText } from './client/chat-command';
import { followShown } from './client/follow-shown';
import type { FollowItem } from './client/follow';
import type { ApprovalMode } from './core/types';
import { listPrompts, type ListStatus } from './client/listing';
import type { PromptRequest } from './client/prompt-input';
import { buildPromptInput, launchPrompt, newSessionDefaults, sessionSettings } from './client/prompt-request';
import { sessionOf } from './client/resumed-session';
import { latestSession } from './client/sessions';
import { listSessions } from './client/session-list';
import { sessionRecord } from './client/session-prompts';
import { promptState, promptStatus } from './client/status';
import { sessionTurns } from './client/turns';

export * from './client/index';

/** What an `AgentClient` runs with: the configuration, the task queue its prompts start on, where warnings go. */
export interface AgentClientOptions {
  config: Config;
  taskQueue: string;
  logger: Logger;
  /** Warnings about the workspace's configuration (ignored untrusted files, bad policy lines). */
  warnings: Warnings;
}

/** One connection's worth of the agent: start, follow, answer and end prompts and sessions. */
export class AgentClient {
  constructor(
    readonly temporal: Client,
    private readonly options: AgentClientOptions,
  ) {}

  /**
   * Builds the prompt's input from `request` as the CLI always has (settings, memory, policies,
   * trust; see buildPromptInput) and starts it, or adds it to the request's session. Resolves to
   * the prompt's id, which `follow` and the answers take, and the request as resolved.
   */
  async start(request: PromptRequest, workflowId = newPromptId()) {
    const { config, logger, warnings, taskQueue } = this.options;
    const built = await buildPromptInput(config, request, warnings, logger);
    const session = await sessionOf(built.request, built.input.workspace)(this.temporal);
    const promptId = await launchPrompt(this.temporal, built.input, session, { taskQueue, workflowId });
    return { promptId, session, ...built };
  }

  /**
   * The prompt's events from `cursor`, and its model output as it streams, until it ends or
   * `signal` aborts: `for await (const item of client.follow(id))`. A follower costs the server a
   * parked long-poll while nothing happens (see HistoryWatch).
   */
  follow(promptId: string, options: { cursor?: number; signal?: AbortSignal } = {}): AsyncGenerator<FollowItem> {
    return followShown(this.options.config, this.temporal, promptId, options);
  }

  /** Approves a call awaiting approval; refused at once for an unknown or already decided call. */
  approve(promptId: string, callId: string, outcome: ToolConfirmation['outcome'] = 'proceed_once') {
    return confirmToolCall(this.temporal, promptId, { callId, outcome });
  }

  /** Denies a call awaiting approval; `reason` goes to the model with the refusal. */
  deny(promptId: string, callId: string, reason?: string) {
    return confirmToolCall(this.temporal, promptId, { callId, outcome: 'cancel', ...(reason && { reason }) });
  }

  /** Answers an `ask_user` call. */
  answer(promptId: string, answer: QuestionAnswerPayload) {
    return answerQuestion(this.temporal, promptId, answer);
  }

  /** Cancels the prompt: every open call still gets its cancelled response. */
  cancel(promptId: string) {
    return cancelPrompt(this.temporal, promptId);
  }

  /** Ends the prompt at once, with no worker needed (open calls get no response). */
  terminate(promptId: string) {
    return terminatePrompt(this.temporal, promptId);
  }

  status(promptId: string) {
    return promptStatus(this.temporal, promptId);
  }

  /** A session's (or a prompt's) turns, numbered from 1, with their checkpoints and which call changed what. */
  turns(id: string) {
    return sessionTurns(this.temporal, id);
  }

  /** A running prompt's own view (phase, pending calls, events so far); undefined when no worker answered in time. */
  state(promptId: string) {
    return promptState(this.temporal, promptId);
  }

  /** Ids of running prompts with a call awaiting approval or an answer. */
  pending(limit?: number) {
    return promptsAwaitingApproval(this.temporal, limit);
  }

  list(options: { limit?: number; status?: ListStatus } = {}) {
    return listPrompts(this.temporal, options);
  }

  /**
   * Adds a message to a session and resolves to the id of the prompt that runs it; with `defaults`
   * (see newSessionDefaults) the session is started by this message when it does not exist yet.
   */
  /** `model`: the model of this message's prompt, when not the session's own; `media`: images sent with it. */
  send(sessionId: string, text: string, defaults?: SessionInput['defaults'], model?: string, media?: MessageMedia[]) {
    const options = { taskQueue: this.options.taskQueue, defaults, model, media };
    return sendToSession(this.temporal, sessionId, text, options);
  }

  /**
   * Puts base64 image bytes into the transcript store (content-addressed) and returns their reference: a message
   * carries the reference, the model activity reads the bytes when it builds the request.
   */
  async storeMedia(base64: string): Promise<string> {
    const { store, close } = openArgsStore(this.options.config);
    try {
      return await store.putBlob(base64);
    } finally {
      await close();
    }
  }

  /**
   * What a new session of `request.workspace` starts with (checked settings and the workspace's
   * trusted configuration); `send` takes it with the session's first message.
   */
  async sessionDefaults(request: Omit<PromptRequest, 'prompt' | 'detach'>): Promise<SessionInput['defaults']> {
    const { config, warnings } = this.options;
    return newSessionDefaults(config, this.temporal, sessionSettings(config, request), request, warnings);
  }

  /** Switches a running prompt's approval mode. */
  setMode(promptId: string, mode: ApprovalMode) {
    return setApprovalMode(this.temporal, promptId, mode);
  }

  /** `/clear` or `/compress` on an idle session: the outcome as the chat says it. */
  chatCommand(session: { id: string; started: boolean }, command: 'clear' | 'compress') {
    return chatCommandText(this.temporal, session, command);
  }

  /** Lets the session's queued messages run, then ends it. */
  closeSession(sessionId: string) {
    return closeSession(this.temporal, sessionId);
  }

  /** The sessions of `workspace` (all without it), most recently active first, each with a title. */
  sessions(workspace?: string) {
    return listSessions(this.temporal, { workspace });
  }

  /**
   * A session's prompts in order and the one running now: an editor shows the session again by
   * following each from its first event (`follow(promptId, { cursor: 0 })`), which yields a finished
   * prompt's whole record, its answer included. InputError for an id that is no session.
   */
  session(sessionId: string) {
    return sessionRecord(this.temporal, sessionId);
  }

  /** This workspace's newest running session (Gemini CLI's `--resume latest`). */
  latestSession(workspace: string) {
    return latestSession(this.temporal, workspace);
  }
}

/** Sortable by start time and unique without coordination. */
export function newPromptId(): string {
  const stamp = new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return `prompt-${stamp}-${randomBytes(3).toString('hex')}`;
}
