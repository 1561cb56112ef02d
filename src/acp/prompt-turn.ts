/**
 * One `session/prompt`: the text goes to the session as its next message, and the prompt that runs
 * it is followed to its end, each item translated into `session/update`s and each call awaiting
 * approval asked in the editor. The response's stop reason comes from how the prompt ended.
 */
import type { StopReason } from '@agentclientprotocol/sdk';
import type { EditorChannel } from './channel';
import { PermissionBridge } from './permissions';
import type { AcpSession } from './session';
import { stopReasonAfter } from './stop-reason';
import { acpUpdates, newUpdateView } from './updates';

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

async function followTurn(session: AcpSession, promptId: string, cx: EditorChannel): Promise<StopReason> {
  const view = newUpdateView(session.cwd);
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
    }
  } finally {
    bridge.close();
  }
  return stop;
}
