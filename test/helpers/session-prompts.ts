import type { Client } from '@temporalio/client';
import { sendMessageUpdate, sessionStatusQuery, type PromptResult } from '../../src/workflows/api';

/**
 * A session's queued message becomes a prompt only when its turn comes: waits (50 ms a try, `tries` times) for the
 * prompt's workflow to exist, then for its result.
 */
export async function promptResultOnceStarted(client: Client, promptId: string, tries = 400): Promise<PromptResult> {
  const handle = client.workflow.getHandle(promptId);
  for (let i = 0; i < tries; i++) {
    const exists = await handle.describe().then(
      () => true,
      () => false,
    );
    if (exists) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return (await handle.result()) as PromptResult;
}

/** Sends `text` to a session, waits for its prompt's result, then until the session has taken that result in. */
export async function askSession(client: Client, sessionId: string, text: string): Promise<PromptResult> {
  const session = client.workflow.getHandle(sessionId);
  const result = await promptResultOnceStarted(
    client,
    await session.executeUpdate(sendMessageUpdate, { args: [{ text }] }),
  );
  await untilSessionIdle(client, sessionId);
  return result;
}

/** A prompt's result is in before its session has taken it in: waits until the session runs no prompt. */
export async function untilSessionIdle(client: Client, sessionId: string): Promise<void> {
  const session = client.workflow.getHandle(sessionId);
  while ((await session.query(sessionStatusQuery)).current) await new Promise((r) => setTimeout(r, 20));
}
