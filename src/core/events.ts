import type { ApprovalMode, TokenUsage } from './types';
import type { Todo } from '../tools/write-todos';

/**
 * The prompt's event log, in order, readable by `eventsQuery` with a cursor. Kept in workflow
 * memory (never in activity payloads), rebuilt identically on replay.
 */
export type AgentEventBody =
  | { type: 'user_prompt'; text: string }
  | { type: 'user_steering'; text: string }
  | { type: 'model_info'; model: string }
  | { type: 'content'; turn: number; text: string }
  | { type: 'thought'; turn: number; subject: string; description: string }
  | { type: 'tool_call_request'; turn: number; callId: string; name: string; args: unknown }
  | { type: 'tool_call_awaiting_approval'; callId: string; name: string; args: unknown }
  /** An `ask_user` call waits for `answerQuestion`. */
  | { type: 'question_asked'; callId: string; questions: unknown }
  /** `args`: what ran, only when a BeforeTool hook or a `modify` approval (`modified`) rewrote the model's. */
  | {
      type: 'tool_call_response';
      callId: string;
      name: string;
      ok: boolean;
      preview: string;
      errorKind?: string;
      args?: Record<string, unknown>;
      modified?: true;
    }
  | { type: 'finished'; turn: number; reason?: string; usage: TokenUsage }
  /** The workspace as turn `turn` left it (the prompt's own turn number): a checkpoint's reference. */
  | { type: 'checkpoint'; turn: number; checkpoint: string }
  | { type: 'max_turns'; maxTurns: number }
  /** The session's model turns, its prompts together, reached `maxSessionTurns` (Gemini CLI's MaxSessionTurns). */
  | { type: 'max_session_turns'; maxSessionTurns: number }
  | { type: 'cancelled' }
  | { type: 'error'; errorType: string; message: string }
  | { type: 'approval_mode'; mode: ApprovalMode }
  | { type: 'loop_detected'; kind: string; detail: string; final: boolean }
  | { type: 'chat_compressed'; status: string; originalTokens: number; newTokens: number }
  | { type: 'context_window_will_overflow'; estimatedRequestTokens: number; remainingTokens: number }
  | { type: 'budget_exhausted'; used: number; budget: number }
  /** The next request (`request`: turn, compression, ...) could take the spend past the limit: the prompt pauses. */
  | {
      type: 'cost_limit_reached';
      spentUsd: number;
      limitUsd: number;
      nextRequestUsd: number;
      model: string;
      request: string;
    }
  | { type: 'warning'; message: string }
  /** The files a prompt's `@path` references named, read and added to its message. */
  | { type: 'referenced_files'; files: string[] }
  /** The model replaced its todo list (`write_todos`). */
  | { type: 'todos'; todos: Todo[] }
  /** The model named its current chapter or intent (`update_topic`); `opened` when a new chapter began. */
  | { type: 'topic'; title: string; summary?: string; intent: string; opened: boolean }
  /** The project context files a prompt loaded at its start (only when there were some). */
  | { type: 'memory_loaded'; files: string[]; chars: number }
  /** Hooks of one event ran (only when some are configured for it); failures come as warnings. */
  | {
      type: 'hook';
      event: string;
      hooks: number;
      decision: string;
      stop: boolean;
      reason?: string;
      systemMessage?: string;
    }
  | { type: 'agent_execution_stopped'; reason: string; systemMessage?: string }
  | { type: 'agent_execution_blocked'; reason: string; systemMessage?: string };

export type AgentEvent = AgentEventBody & { seq: number; time: string };
