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
import { PermissionBridge } from './permissions';
import type { AcpSession } from './session';
import { pausedForMoney, stopReasonAfter } from './stop-reason';
import { acpUpdates, newUpdateView } from './updates';

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
    return await followTurn(session, promptId, cx);
  } finally {
    session.running = undefined;
  }
}

async function followTurn(session: AcpSession, promptId: string, cx: EditorChannel): Promise<StopReason> {
  const view = newUpdateView(session.cwd, false, { usage: session.usage, promptId });
  const bridge = new PermissionBridge({ ...cx, sessionId: session.id, promptId, workspace: session.cwd });
  let stop: StopReason = 'end_turn';
  let modeChecked = false;
  try {
    for await (const item of cx.client.follow(promptId)) {
      if (item.kind === 'event') {
        // The session starts each prompt in its first mode: one the editor switched to since is set again.
        if (!modeChecked && session.mode !== session.startMode) await cx.client.setMode(promptId, session.mode);
        modeChecked = true;
        if (item.event.type === 'approval_mode') session.mode = item.event.mode;
        stop = stopReasonAfter(stop, item.event);
        bridge.onEvent(item.event);
      }
      for (const update of acpUpdates(view, item)) await cx.notify(update);
      if (item.kind === 'event' && pausedForMoney(item.event)) break;
    }
  } finally {
    bridge.close();
  }
  return stop;
}
