/**
 * An editor attaching to a session that already exists: `session/load` replays its whole
 * conversation as `session/update`s, then follows the prompt running now (and the messages queued
 * after it) live; `session/resume` follows from now without the replay. Every prompt's record comes
 * from the server, so prompts that ran or ended while no editor was attached are shown like the others.
 */
import type { SessionPrompt } from '../client';
import type { AgentEvent } from '../core/events';
import type { ToolCallStatus } from '../core/types';
import type { PromptStatus, ToolCallView } from '../workflows/api';
import type { EditorChannel } from './channel';
import { followTurn } from './follow-turn';
import type { PermissionBridge } from './permissions';
import type { AcpSession } from './session';
import { acpUpdates, newUpdateView, toolCall } from './updates';

/** Sends each ended prompt's whole record, in order, as a replay (the user's messages included). */
export async function replayEnded(session: AcpSession, prompts: SessionPrompt[], cx: EditorChannel): Promise<void> {
  for (const prompt of prompts.filter((p) => p.state === 'ended')) {
    const view = newUpdateView(session.cwd, true, { usage: session.usage, promptId: prompt.promptId });
    for await (const item of cx.client.follow(prompt.promptId, { cursor: 0 }))
      for (const update of acpUpdates(view, item)) await cx.notify(update);
  }
}

/**
 * Follows the session's running prompt, then its queued ones, until they end or `stop` aborts.
 * With `replay`, the running prompt is shown from its first event, else from now. Resolves
 * `caughtUp` once what happened before the editor attached has been sent (its response may go
 * then); calls awaiting approval at that point are asked of this editor, as are later ones.
 */
export async function followAttached(
  session: AcpSession,
  prompts: SessionPrompt[],
  cx: EditorChannel & { replay: boolean; stop: AbortSignal; caughtUp(): void },
): Promise<void> {
  const live = prompts.filter((p) => p.state !== 'ended');
  try {
    for (const [i, prompt] of live.entries()) {
      if (cx.stop.aborted) break;
      session.running = { promptId: prompt.promptId };
      await followOne(session, prompt.promptId, { ...cx, replay: cx.replay || i > 0 });
    }
  } catch (err) {
    if (!cx.stop.aborted) cx.logger.warn({ err: String(err), sessionId: session.id }, 'following the session failed');
  } finally {
    if (live.some((p) => p.promptId === session.running?.promptId)) session.running = undefined;
    cx.caughtUp();
  }
}

async function followOne(
  session: AcpSession,
  promptId: string,
  cx: EditorChannel & { replay: boolean; stop: AbortSignal; caughtUp(): void },
): Promise<void> {
  // What the prompt has done so far: its events up to here are the past, its pending calls the open questions.
  const now = await cx.client.state(promptId);
  const past = now?.eventCount ?? 0;
  const pending = new Set([...(now?.pendingApprovals ?? []), ...(now?.pendingQuestions ?? [])].map((c) => c.callId));
  // Resolves the attach's answer: calling it again once answered does nothing.
  const catchUp = cx.caughtUp;
  if (past === 0 || !cx.replay) catchUp();
  // From now on: the calls still open are not among the events followed, so they are announced
  // here (their end refers to them), and those waiting for approval asked.
  const opened = async (bridge: PermissionBridge) => {
    if (cx.replay) return;
    for (const call of openCalls(now)) await cx.notify(toolCall(session.cwd, call.callId, call.name, call.args));
    for (const call of now?.pendingApprovals ?? []) bridge.onEvent(awaiting(call));
    for (const q of now?.pendingQuestions ?? []) bridge.onEvent(asked(q));
  };
  try {
    await followTurn(session, promptId, cx, {
      cursor: cx.replay ? 0 : past,
      replay: true,
      past,
      pending,
      signal: cx.stop,
      opened,
      shown: (event) => void (event.seq >= past - 1 && catchUp()),
    });
  } finally {
    catchUp();
  }
}

const ENDED: ReadonlySet<ToolCallStatus> = new Set(['success', 'error', 'cancelled']);

function openCalls(state: PromptStatus | undefined): ToolCallView[] {
  return (state?.toolCalls ?? []).filter((call) => !ENDED.has(call.status));
}

function awaiting(call: { callId: string; name: string; args: unknown }): AgentEvent {
  return { type: 'tool_call_awaiting_approval', ...call, seq: -1, time: new Date().toISOString() };
}

function asked(q: { callId: string; questions: unknown }): AgentEvent {
  return { type: 'question_asked', ...q, seq: -1, time: new Date().toISOString() };
}
