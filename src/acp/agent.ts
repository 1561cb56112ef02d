/**
 * The agent side of the Agent Client Protocol: `initialize`, `authenticate`, sessions, prompts,
 * cancel, modes and the model. Every handler goes through the one client (AgentClient); the
 * sessions and their conversations live in Temporal, this process only relays.
 */
import {
  agent,
  PROTOCOL_VERSION,
  RequestError,
  type AgentApp,
  type AgentContext,
  type ContentBlock,
} from '@agentclientprotocol/sdk';
import type { AgentClient } from '../client';
import type { Logger } from '../logger';
import { editorChannel, sessionNotifier, type EditorCapabilities } from './channel';
import { commandsUpdate, runSlashCommand } from './commands';
import { configOptions, isApprovalMode, MODEL_CHOICES, MODEL_OPTION, modeState } from './modes';
import { messageOf, promptContent, UnsupportedContentError } from './prompt-content';
import { runPromptTurn } from './prompt-turn';
import { newSession, type AcpSession } from './session';
import { addSessionMethods } from './sessions';

export interface AgentDeps {
  client: AgentClient;
  logger: Logger;
  version: string;
  /** Whether a Gemini API key is there for the worker this process may start (`authenticate`). */
  hasApiKey(): boolean;
  /** `/status`'s text for a session (`started` false: its first prompt has not started it yet). */
  statusText(sessionId: string, started: boolean): Promise<string>;
}

/** Gemini CLI's id for the Gemini API key method, so an editor set up for it finds the same. */
export const API_KEY_METHOD = 'gemini-api-key';

export function acpAgent(deps: AgentDeps): AgentApp {
  const sessions = new Sessions();
  const editor: EditorCapabilities = { elicitation: false };
  const channelDeps = { ...deps, editor };
  const app = agent({ name: 'durable-agent' })
    .onRequest('initialize', ({ params }) => {
      editor.elicitation = params.clientCapabilities?.elicitation?.form != null;
      return initializeResponse(deps.version);
    })
    .onRequest('authenticate', ({ params }) => authenticate(params.methodId, deps))
    .onRequest('session/new', async ({ params, client }) => {
      const session = sessions.add(await newSession(deps.client, params));
      void sessionNotifier(client, session.id)(commandsUpdate);
      return { sessionId: session.id, modes: modeState(session.mode), configOptions: configOptions(session.model) };
    })
    .onRequest('session/prompt', ({ params, client }) =>
      prompt(sessions.get(params.sessionId), params.prompt, client, channelDeps),
    )
    .onNotification('session/cancel', async ({ params }) => {
      const running = sessions.find(params.sessionId)?.running;
      if (running)
        await deps.client
          .cancel(running.promptId)
          .catch((err: unknown) => deps.logger.warn({ err: String(err) }, 'cancel failed'));
    })
    .onRequest('session/set_mode', ({ params, client }) =>
      setMode(sessions.get(params.sessionId), params.modeId, client, deps),
    )
    .onRequest('session/set_config_option', ({ params }) => setModel(sessions.get(params.sessionId), params));
  return addSessionMethods(app, { client: deps.client, logger: deps.logger, sessions, editor });
}

/** The sessions this connection created or attached. */
class Sessions {
  private readonly byId = new Map<string, AcpSession>();

  add(session: AcpSession): AcpSession {
    this.byId.set(session.id, session);
    return session;
  }

  find(id: string): AcpSession | undefined {
    return this.byId.get(id);
  }

  remove(id: string): void {
    this.byId.delete(id);
  }

  /** The session, or the JSON-RPC error for an unknown id. */
  get(id: string): AcpSession {
    const session = this.byId.get(id);
    if (!session) throw RequestError.invalidParams({ sessionId: id }, `unknown session ${id}`);
    return session;
  }
}

function authenticate(methodId: string, deps: AgentDeps) {
  if (methodId !== API_KEY_METHOD) throw RequestError.invalidParams({ methodId }, `unknown auth method ${methodId}`);
  if (!deps.hasApiKey())
    throw RequestError.authRequired(undefined, 'set GEMINI_API_KEY in the agent’s environment (the editor’s env)');
  return {};
}

async function prompt(
  session: AcpSession,
  blocks: ContentBlock[],
  client: AgentContext,
  deps: AgentDeps & { editor: EditorCapabilities },
) {
  if (session.running)
    throw RequestError.invalidRequest({ sessionId: session.id }, 'a prompt is running: cancel it or wait for it');
  const { text, images } = checkedContent(blocks);
  const answered = await runSlashCommand(session, text, deps);
  if (answered !== undefined) {
    const chunk = { sessionUpdate: 'agent_message_chunk' as const, content: { type: 'text' as const, text: answered } };
    await sessionNotifier(client, session.id)(chunk);
    return { stopReason: 'end_turn' as const };
  }
  const message = { text: messageOf(text), images };
  return { stopReason: await runPromptTurn(session, message, editorChannel(client, session.id, deps)) };
}

/** The model of the session's next prompts: one of those offered (or the session's own), at any time. */
function setModel(session: AcpSession, params: { configId: string; value: unknown }) {
  if (params.configId !== MODEL_OPTION)
    throw RequestError.invalidParams({ configId: params.configId }, `unknown config option ${params.configId}`);
  const model = params.value;
  if (typeof model !== 'string' || !(MODEL_CHOICES.includes(model) || model === session.model))
    throw RequestError.invalidParams({ value: model }, `unknown model ${String(model)}: choose one the option offers`);
  session.model = model;
  if (session.defaults) session.defaults.model = model;
  return { configOptions: configOptions(session.model) };
}

/** The mode for the session's next prompts, and for the running one at once. */
async function setMode(session: AcpSession, modeId: string, client: AgentContext, deps: AgentDeps) {
  if (!isApprovalMode(modeId)) throw RequestError.invalidParams({ modeId }, `unknown mode ${modeId}`);
  session.mode = modeId;
  if (session.defaults) session.defaults.approvalMode = session.startMode = modeId;
  if (session.running) await deps.client.setMode(session.running.promptId, modeId);
  await sessionNotifier(client, session.id)({ sessionUpdate: 'current_mode_update', currentModeId: modeId });
  return {};
}

function checkedContent(blocks: ContentBlock[]) {
  try {
    return promptContent(blocks);
  } catch (err) {
    if (err instanceof UnsupportedContentError) throw RequestError.invalidParams(undefined, err.message);
    throw err;
  }
}

function initializeResponse(version: string) {
  return {
    protocolVersion: PROTOCOL_VERSION,
    agentInfo: { name: 'durable-agent', title: 'durable-agent', version },
    authMethods: [
      { id: API_KEY_METHOD, name: 'Gemini API key', description: 'GEMINI_API_KEY in the agent’s environment' },
    ],
    agentCapabilities: {
      loadSession: true,
      sessionCapabilities: { list: {}, resume: {}, close: {} },
      promptCapabilities: { image: true, audio: false, embeddedContext: true },
      mcpCapabilities: { http: true, sse: true },
    },
  };
}
