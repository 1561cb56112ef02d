import { hookContextPart, toolHookMessage } from '../../core/hooks/context';
import type { HookDecision } from '../../core/hooks/types';
import type { TranscriptStore } from '../../store/types';

/**
 * AfterTool's change to a function response, stored as a blob for the workflow to send instead:
 * a stop or block replaces it with the reason; additional context is appended to its text.
 */
export async function rewriteToolResponse(
  store: TranscriptStore,
  original: { ref?: string; response?: Record<string, unknown> },
  decision: HookDecision,
): Promise<string> {
  if (decision.stop || decision.blocked) {
    return store.putBlob(
      JSON.stringify({ error: toolHookMessage(decision.stop ? 'stop' : 'block-after', decision.reason) }),
    );
  }
  const response = original.ref
    ? (JSON.parse(await store.getBlob(original.ref)) as Record<string, unknown>)
    : { ...(original.response ?? {}) };
  const context = (hookContextPart(decision.additionalContext ?? '') as { text: string }).text;
  const key = typeof response.output === 'string' || !('error' in response) ? 'output' : 'error';
  const current = response[key];
  if (current === undefined || typeof current === 'string')
    response[key] = current ? `${current}\n\n${context}` : context;
  else response.hook_context = context;
  return store.putBlob(JSON.stringify(response));
}
