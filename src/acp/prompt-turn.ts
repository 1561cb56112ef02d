/**
 * One `session/prompt`: the text goes to the session as its next message, and the prompt that runs
 * it is followed to its end, each item translated into `session/update`s and each call awaiting
 * approval asked in the editor. The response's stop reason comes from how the prompt ended. A
 * prompt paused on its token budget or spending limit ends the editor's turn (`end_turn`, the pause
 * and the command that tops it up shown as text): it waits, durably, for hours if need be, and the
 * editor loading the session again follows it once topped up.
 */
import type { StopReason } from '@agentclientprotocol/sdk';
import type { EditorChannel } from './channel';
import { followTurn } from './follow-turn';
import type { AcpSession } from './session';

/** Sends `text` as the session's next message and follows the prompt that runs it to its end. */
export async function runPromptTurn(session: AcpSession, text: string, cx: EditorChannel): Promise<StopReason> {
  // The model goes with each message: the editor may have changed it since the session started.
  const promptId = await cx.client.send(
    session.id,
    text,
    session.defaults,
    session.defaults ? undefined : session.model,
  );
  session.defaults = undefined;
  session.running = { promptId };
  try {
    return await followTurn(session, promptId, cx, { endOnPause: true });
  } finally {
    session.running = undefined;
  }
}
