import type { AgentContext, SessionUpdate } from '@agentclientprotocol/sdk';
import type { AgentClient } from '../client';
import type { Logger } from '../logger';
import type { AskPermission } from './permissions';

/** One editor's session as a prompt's follower sees it: the one client, and the editor's updates and questions. */
export interface EditorChannel {
  client: AgentClient;
  notify(update: SessionUpdate): Promise<void>;
  ask: AskPermission;
  logger: Logger;
}

/** `session/update` notifications of `sessionId` to the editor at `peer`. */
export function sessionNotifier(peer: AgentContext, sessionId: string): EditorChannel['notify'] {
  return (update) => peer.notify('session/update', { sessionId, update });
}

export function editorChannel(
  peer: AgentContext,
  sessionId: string,
  deps: Pick<EditorChannel, 'client' | 'logger'>,
): EditorChannel {
  return {
    client: deps.client,
    logger: deps.logger,
    notify: sessionNotifier(peer, sessionId),
    ask: (request, signal) => peer.request('session/request_permission', request, { cancellationSignal: signal }),
  };
}
