import type { WorkflowHandle } from '@temporalio/client';
import { statusQuery, toolConfirmationSignal, type PromptStatus, type ToolConfirmation } from '../../src/workflows/api';

export type PendingCall = PromptStatus['pendingApprovals'][0];

/**
 * Answers every call that comes up for approval with `answer(call)` until the prompt stops
 * running; returns the calls that were asked about, in the order they came up.
 */
export async function answerEvery(
  handle: WorkflowHandle,
  answer: (call: PendingCall) => Omit<ToolConfirmation, 'callId'>,
): Promise<PendingCall[]> {
  const asked = new Map<string, PendingCall>();
  while ((await handle.describe()).status.name === 'RUNNING') {
    const status = await handle.query(statusQuery).catch(() => undefined);
    for (const call of status?.pendingApprovals ?? []) {
      if (asked.has(call.callId)) continue;
      asked.set(call.callId, call);
      await handle.signal(toolConfirmationSignal, { callId: call.callId, ...answer(call) });
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return [...asked.values()];
}

/** Denies every call that comes up for approval; returns `args[key]` of each call asked about. */
export async function denyEvery(handle: WorkflowHandle, key: string): Promise<string[]> {
  const asked = await answerEvery(handle, () => ({ outcome: 'cancel' }));
  return asked.map((call) => String((call.args as Record<string, unknown>)[key]));
}
