/**
 * One `session/prompt`: the text goes to the session as its next message, and the prompt that runs
 * it is followed to its end, each item translated into `session/update`s and each call awaiting
 * approval asked in the editor. The response's stop reason comes from how the prompt ended.
 */
import type { StopReason } from '@agentclientprotocol/sdk';
import type { EditorChannel } from './channel';
import { followTurn } from './follow-turn';
import type { AcpSession } from './session';

/** Sends `text` as the session's next message and follows the prompt that runs it to its end. */
export async function runPromptTurn(session: AcpSession, text: string, cx: EditorChannel): Promise<StopReason> {
  const promptId = await cx.client.send(session.id, text, session.defaults);
  session.defaults = undefined;
  session.running = { promptId };
  try {
    return await followTurn(session, promptId, cx);
  } finally {
    session.running = undefined;
  }
}
