import { fenceUntrusted } from '../untrusted';
import type { NewPart } from '../types';

/** Where the prompt's hooks stand; carried across continue-as-new in `PromptInput.hookState`. */
export interface HookState {
  /** A `run` outside a session: the prompt fires SessionStart and SessionEnd itself. */
  standalone: boolean;
  /** BeforeAgent has fired for the current request (the prompt, or an AfterAgent continuation). */
  began: boolean;
  /** The request AfterAgent reports as `prompt`. */
  prompt: string;
  /** An AfterAgent block continued the prompt (Gemini CLI's `stop_hook_active`). */
  stopHookActive: boolean;
  /** Context clears so far: each starts a transcript `<workflow id>/cleared-<n>`. */
  clears: number;
  /** A hook said `continue: false` during tools or the model turn: the prompt stops at the next boundary. */
  stop?: string;
}

/** Gemini CLI's effective reason of a stop or block. */
export function effectiveReason(reason: string | undefined): string {
  return reason || 'No reason provided';
}

/**
 * Context from a hook as its own text part, `<`/`>` escaped as Gemini CLI does, inside the untrusted-data
 * fence: a hook may pass on text it read anywhere.
 */
export function hookContextPart(context: string): NewPart {
  const escaped = context.replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return { kind: 'text', text: fenceUntrusted('hook', `<hook_context>${escaped}</hook_context>`) };
}

/** What the model is told instead of a tool's result when a tool hook stops the agent or blocks the call. */
export function toolHookMessage(kind: 'stop' | 'block-before' | 'block-after', reason: string | undefined): string {
  const why = effectiveReason(reason);
  if (kind === 'stop') return `Agent execution stopped by hook: ${why}`;
  return kind === 'block-before' ? `Tool execution blocked by hook: ${why}` : `Tool result blocked by hook: ${why}`;
}
