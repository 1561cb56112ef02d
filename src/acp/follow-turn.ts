/**
 * The one loop that follows a prompt in an editor, for the prompt the editor sent and for one it
 * attached to: each item translated into `session/update`s, each call awaiting approval asked,
 * the editor's mode kept on the prompt and the prompt's mode changes kept on the session.
 */
import type { StopReason } from '@agentclientprotocol/sdk';
import type { AgentEvent } from '../core/events';
import type { EditorChannel } from './channel';
import { PermissionBridge } from './permissions';
import type { AcpSession } from './session';
import { pausedForMoney, stopReasonAfter } from './stop-reason';
import { acpUpdates, newUpdateView } from './updates';

/** Where to follow from; the defaults follow a prompt from its start, live, asking every call. */
export interface FollowFrom {
  /** The first event to show (0: from the start). */
  cursor?: number;
  /** Shows the user's messages too (a replay); a live prompt's editor typed them itself. */
  replay?: boolean;
  /** Events before this seq are the past: a call they asked about is asked only if in `pending`. */
  past?: number;
  pending?: ReadonlySet<string>;
  signal?: AbortSignal;
  /** Before the first item, with the bridge that asks the editor (to ask what is open already). */
  opened?(bridge: PermissionBridge): Promise<void>;
  /** Ends the follow when the prompt pauses on its budget (the editor's own turn ends; the prompt waits on). */
  endOnPause?: boolean;
  /** After each event's updates were sent. */
  shown?(event: AgentEvent): void;
}

/** Follows `promptId` to its end (or `from.signal`); the stop reason its events add up to. */
export async function followTurn(
  session: AcpSession,
  promptId: string,
  cx: EditorChannel,
  from: FollowFrom = {},
): Promise<StopReason> {
  const view = newUpdateView(session.cwd, from.replay, { usage: session.usage, promptId });
  const bridge = new PermissionBridge({ ...cx, sessionId: session.id, promptId, workspace: session.cwd });
  let stop: StopReason = 'end_turn';
  let modeChecked = false;
  try {
    await from.opened?.(bridge);
    for await (const item of cx.client.follow(promptId, { cursor: from.cursor, signal: from.signal })) {
      if (item.kind === 'event') {
        // A prompt starts in the session's first mode: one the editor switched to since is set again.
        if (!modeChecked && session.mode !== session.startMode) await cx.client.setMode(promptId, session.mode);
        modeChecked = true;
        if (item.event.type === 'approval_mode') session.mode = item.event.mode;
        stop = stopReasonAfter(stop, item.event);
        if (askable(item.event, from)) bridge.onEvent(item.event);
      }
      for (const update of acpUpdates(view, item)) await cx.notify(update);
      if (item.kind === 'event') from.shown?.(item.event);
      if (from.endOnPause && item.kind === 'event' && pausedForMoney(item.event)) break;
    }
  } finally {
    bridge.close();
  }
  return stop;
}

/** A call or question the past asked about is asked again only while it still waits (one decided since is not). */
function askable(event: AgentEvent, from: FollowFrom): boolean {
  const past = event.seq < (from.past ?? 0);
  const question = event.type === 'tool_call_awaiting_approval' || event.type === 'question_asked';
  return !past || !question || !!from.pending?.has(event.callId);
}
