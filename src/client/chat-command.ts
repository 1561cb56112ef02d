import type { Client } from '@temporalio/client';
import { compressionMessage } from '../core/compression-message';
import { clearSession, compressSession } from './agent-client';
import { failureText } from './failure-text';

/**
 * `/clear` and `/compress` on an idle session, as every front end runs them: the outcome in Gemini
 * CLI's words. `started` false: the session does not exist yet (its first message starts it), so
 * there is nothing to clear or compress.
 */
export async function chatCommandText(
  client: Client,
  session: { id: string; started: boolean },
  command: 'clear' | 'compress',
): Promise<string> {
  if (command === 'clear') {
    if (session.started) await clearSession(client, session.id);
    return 'Conversation cleared: the next message starts afresh.';
  }
  if (!session.started) return 'Nothing to compress.';
  try {
    const r = await compressSession(client, session.id);
    return compressionMessage(r.status, r.originalTokens, r.newTokens);
  } catch (err) {
    // Gemini CLI's words, with the reason Temporal keeps under the failed activity.
    return `Failed to compress chat history: ${failureText(err)}`;
  }
}
