/**
 * The session methods beyond `session/new`: `session/list`, `session/load`, `session/resume` and
 * `session/close`. A session is our session workflow (its id is the ACP session id), so any editor,
 * in any process, can list it, load it and be asked its pending approvals: nothing of it lives here.
 */
import * as path from 'node:path';
import {
  RequestError,
  type AgentApp,
  type AgentContext,
  type ListSessionsRequest,
  type ListSessionsResponse,
  type LoadSessionRequest,
} from '@agentclientprotocol/sdk';
import {
  describeExecution,
  InputError,
  sessionWorkspacePath,
  WorkflowNotFoundError,
  type AgentClient,
  type ListedSession,
} from '../client';
import { DEFAULT_MODEL } from '../core/models';
import type { Logger } from '../logger';
import { configOptions, modeState } from './modes';
import type { AcpSession } from './session';
import { editorChannel, type EditorCapabilities } from './channel';
import { followAttached, replayEnded } from './session-attach';

export interface SessionMethodsContext {
  client: AgentClient;
  logger: Logger;
  /** This connection's sessions, shared with the other handlers (a loaded one takes prompts like a new one). */
  sessions: SessionRegistry;
  /** What the editor declared in `initialize`. */
  editor: EditorCapabilities;
}

/** The sessions a connection knows, by id. */
export interface SessionRegistry {
  add(session: AcpSession): AcpSession;
  find(id: string): AcpSession | undefined;
  remove(id: string): void;
}

/** Sessions per `session/list` page. */
export const LIST_PAGE_SIZE = 50;

export function addSessionMethods(app: AgentApp, cx: SessionMethodsContext): AgentApp {
  // The follower of each session attached here: a second load, or a close, stops the first.
  const followers = new Map<string, AbortController>();
  const attach = async (params: LoadSessionRequest, peer: AgentContext, replay: boolean) => {
    followers.get(params.sessionId)?.abort();
    const stop = new AbortController();
    followers.set(params.sessionId, stop);
    return attachSession(cx, params, { peer, replay, stop: stop.signal });
  };
  return app
    .onRequest('session/list', ({ params }) => listPage(cx.client, params))
    .onRequest('session/load', ({ params, client }) => attach(params, client, true))
    .onRequest('session/resume', ({ params, client }) => attach({ mcpServers: [], ...params }, client, false))
    .onRequest('session/close', async ({ params }) => {
      await closeSession(cx, params.sessionId);
      followers.get(params.sessionId)?.abort();
      followers.delete(params.sessionId);
      cx.sessions.remove(params.sessionId);
      return {};
    });
}

/** One page of the sessions of `cwd` (all without it), most recently active first. */
async function listPage(client: AgentClient, params: ListSessionsRequest): Promise<ListSessionsResponse> {
  if (params.cwd != null) absolute(params.cwd);
  const after = params.cursor != null ? readCursor(params.cursor) : undefined;
  const { page, nextCursor } = pageOf(await client.sessions(params.cwd ?? undefined), after);
  return {
    sessions: page.map((s) => ({ sessionId: s.sessionId, cwd: s.workspace, title: s.title, updatedAt: s.updatedAt })),
    ...(nextCursor && { nextCursor }),
  };
}

/**
 * The sessions listed after `after` (from the first without it), at most `size`, and the cursor of
 * the next page when there is one. The cursor names the page's last session, not a position: a
 * session that became active meanwhile moves to the top instead of shifting the pages after it.
 */
export function pageOf(
  all: ListedSession[],
  after: Cursor | undefined,
  size = LIST_PAGE_SIZE,
): { page: ListedSession[]; nextCursor?: string } {
  const start = after ? all.findIndex((s) => listedAfter(s, after)) : 0;
  if (start < 0) return { page: [] };
  const page = all.slice(start, start + size);
  const last = page.at(-1);
  return start + size < all.length && last ? { page, nextCursor: cursorOf(last) } : { page };
}

/**
 * Attaches this editor to an existing session: checks it is one of `cwd`, replays its ended prompts
 * (`replay`), then follows its running and queued prompts in the background. Resolves, to the
 * load's response, once what happened before is sent.
 */
async function attachSession(
  cx: SessionMethodsContext,
  params: LoadSessionRequest,
  how: { peer: AgentContext; replay: boolean; stop: AbortSignal },
) {
  const cwd = absolute(params.cwd);
  const record = await cx.client.session(params.sessionId).catch((err: unknown) => {
    if (err instanceof InputError) throw RequestError.sessionNotFound(params.sessionId);
    throw err;
  });
  if (record.workspace !== undefined && record.workspace !== sessionWorkspacePath(cwd))
    throw RequestError.invalidParams(
      { sessionId: params.sessionId, cwd: params.cwd },
      `session ${params.sessionId} works in ${record.workspace}, not in ${params.cwd}`,
    );
  const mode = record.approvalMode ?? 'default';
  const model = record.model ?? DEFAULT_MODEL;
  const session: AcpSession = { id: record.sessionId, cwd: record.workspace ?? cwd, mode, startMode: mode, model };
  cx.sessions.add(session);
  const attach = editorChannel(how.peer, session.id, cx);
  if (how.replay) await replayEnded(session, record.prompts, attach);
  const caughtUp = new Promise<void>((resolve) => {
    void followAttached(session, record.prompts, { ...attach, replay: how.replay, stop: how.stop, caughtUp: resolve });
  });
  await caughtUp;
  return { modes: modeState(session.mode), configOptions: configOptions(session.model) };
}

/** Our session's close: its queued messages run, then it ends. A session never prompted has nothing to end. */
async function closeSession(cx: SessionMethodsContext, sessionId: string): Promise<void> {
  if (cx.sessions.find(sessionId)?.defaults) return;
  try {
    await cx.client.closeSession(sessionId);
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
    // Signalling an ended session fails as not found: one that exists is closed already.
    // Asked of the server alone: a session's own query would need a worker to replay an ended session.
    const found = await describeExecution(cx.client.temporal, sessionId).catch(() => undefined);
    if (found?.type !== 'agentSessionWorkflow') throw RequestError.sessionNotFound(sessionId);
  }
}

/** ACP's paths are absolute; a relative one is refused rather than guessed. */
function absolute(dir: string): string {
  if (!path.isAbsolute(dir)) throw RequestError.invalidParams({ cwd: dir }, `cwd must be an absolute path: ${dir}`);
  return dir;
}

export type Cursor = Pick<ListedSession, 'updatedAt' | 'sessionId'>;

/** The last session of a page, as the opaque cursor of the next: the list is ordered by these two. */
function cursorOf(s: Cursor): string {
  return Buffer.from(JSON.stringify([s.updatedAt, s.sessionId])).toString('base64url');
}

export function readCursor(cursor: string): Cursor {
  try {
    const [updatedAt, sessionId] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof updatedAt === 'string' && typeof sessionId === 'string') return { updatedAt, sessionId };
  } catch {
    // Not ours: refused below.
  }
  throw RequestError.invalidParams({ cursor }, 'not a cursor this agent gave out');
}

/** Whether `s` comes after the cursor's session in the list's order (newest first, then by id). */
function listedAfter(s: Cursor, after: Cursor): boolean {
  return s.updatedAt < after.updatedAt || (s.updatedAt === after.updatedAt && s.sessionId > after.sessionId);
}
