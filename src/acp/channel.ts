import type {
  AgentContext,
  CreateElicitationRequest,
  CreateElicitationResponse,
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionUpdate,
} from '@agentclientprotocol/sdk';
import type { AgentClient } from '../client';
import type { Logger } from '../logger';

/** `session/request_permission`, withdrawn through `signal`. */
export type AskPermission = (
  request: RequestPermissionRequest,
  signal: AbortSignal,
) => Promise<RequestPermissionResponse>;

/** `elicitation/create`, withdrawn through `signal`. */
export type Elicit = (request: CreateElicitationRequest, signal: AbortSignal) => Promise<CreateElicitationResponse>;

/** One editor's session as a prompt's follower sees it: the one client, and the editor's updates and questions. */
export interface EditorChannel {
  client: AgentClient;
  notify(update: SessionUpdate): Promise<void>;
  ask: AskPermission;
  /** Set when the editor declared form elicitation in `initialize`. */
  elicit?: Elicit;
  logger: Logger;
}

/** What the editor declared it can do in `initialize`, kept for its connection. */
export interface EditorCapabilities {
  elicitation: boolean;
}

/** `session/update` notifications of `sessionId` to the editor at `peer`. */
export function sessionNotifier(peer: AgentContext, sessionId: string): EditorChannel['notify'] {
  return (update) => peer.notify('session/update', { sessionId, update });
}

export function editorChannel(
  peer: AgentContext,
  sessionId: string,
  deps: Pick<EditorChannel, 'client' | 'logger'> & { editor: EditorCapabilities },
): EditorChannel {
  const elicit: Elicit = (request, signal) =>
    peer.request('elicitation/create', request, { cancellationSignal: signal });
  return {
    client: deps.client,
    logger: deps.logger,
    notify: sessionNotifier(peer, sessionId),
    ask: (request, signal) => peer.request('session/request_permission', request, { cancellationSignal: signal }),
    ...(deps.editor.elicitation && { elicit }),
  };
}
