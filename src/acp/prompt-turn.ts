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
import type { PromptImage } from './prompt-content';
import type { AcpSession } from './session';

/**
 * Sends the text as the session's next message and follows the prompt that runs it to its end. Its images
 * go into the transcript store first; the message carries their references.
 */
export async function runPromptTurn(
  session: AcpSession,
  message: { text: string; images: PromptImage[] },
  cx: EditorChannel,
): Promise<StopReason> {
  const media = await Promise.all(
    message.images.map(async ({ mimeType, data }) => ({ mimeType, ref: await cx.client.storeMedia(data) })),
  );
  // The model goes with each message: the editor may have changed it since the session started.
  const model = session.defaults ? undefined : session.model;
  const promptId = await cx.client.send(session.id, message.text, session.defaults, model, media);
  session.defaults = undefined;
  session.running = { promptId };
  try {
    return await followTurn(session, promptId, cx, { endOnPause: true });
  } finally {
    session.running = undefined;
  }
}
