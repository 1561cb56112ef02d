import type { HookPlan } from '../../core/hooks/plan';
import type { HookEventName } from '../../core/hooks/types';
import type { NewPart } from '../../core/types';

/** What the workflow knows about where the prompt stands, for the hook input and environment. */
export interface HookContext {
  sessionId: string;
  promptId: string;
  workspace: string;
  transcriptId?: string;
}

export interface RunHooksInput {
  event: HookEventName;
  plan: HookPlan;
  context: HookContext;
  /** The event's own fields of the hook input (`tool_name`, `prompt`, ...); blob markers are resolved here. */
  fields: Record<string, unknown>;
  /** A tool's result by reference (AfterTool): becomes `tool_response`. */
  toolResponse?: { ref?: string; response?: Record<string, unknown> };
  /** The model request (BeforeModel, BeforeToolSelection) or request and response (AfterModel), by transcript reference. */
  llm?: { transcriptId: string; length: number; append: NewPart[]; model: string; toolNames?: string[]; responseAt?: number };
}
