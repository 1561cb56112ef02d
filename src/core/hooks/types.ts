import { z } from 'zod';

/** Gemini CLI's hook events, by the names its settings use. */
export const HOOK_EVENTS = [
  'BeforeTool',
  'AfterTool',
  'BeforeAgent',
  'AfterAgent',
  'Notification',
  'SessionStart',
  'SessionEnd',
  'PreCompress',
  'BeforeModel',
  'AfterModel',
  'BeforeToolSelection',
] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];

/** Gemini CLI's per-hook default timeout, and the grace between SIGTERM and SIGKILL. */
export const DEFAULT_HOOK_TIMEOUT_MS = 60_000;
export const HOOK_KILL_GRACE_MS = 5_000;

const commandSchema = z.strictObject({
  type: z.literal('command'),
  command: z.string().trim().min(1, 'command must not be empty'),
  name: z.string().optional(),
  description: z.string().optional(),
  /** Milliseconds, as in Gemini CLI. */
  timeout: z.number().int().positive('timeout is in milliseconds and must be a positive whole number').optional(),
  env: z.record(z.string(), z.string()).optional(),
});

const definitionSchema = z.strictObject({
  matcher: z.string().optional(),
  sequential: z.boolean().optional(),
  hooks: z.array(commandSchema),
});

/** The `hooks` object of a settings file: event name → hook definitions (Gemini CLI's format). */
export const hooksConfigSchema = z.partialRecord(z.enum(HOOK_EVENTS), z.array(definitionSchema));

export type HookCommand = z.infer<typeof commandSchema>;
export type HookDefinition = z.infer<typeof definitionSchema>;
export type HooksConfig = z.infer<typeof hooksConfigSchema>;

/** What one hook may answer (Gemini CLI's hook output fields); unknown fields are ignored. */
export interface HookOutput {
  continue?: boolean;
  stopReason?: string;
  suppressOutput?: boolean;
  systemMessage?: string;
  decision?: 'allow' | 'approve' | 'ask' | 'block' | 'deny';
  reason?: string;
  hookSpecificOutput?: HookSpecificOutput;
}

export interface HookSpecificOutput {
  additionalContext?: string;
  tool_input?: Record<string, unknown>;
  tailToolCallRequest?: { name: string; args?: Record<string, unknown> };
  clearContext?: boolean;
  llm_request?: Record<string, unknown>;
  llm_response?: Record<string, unknown>;
  toolConfig?: { mode?: 'AUTO' | 'ANY' | 'NONE'; allowedFunctionNames?: string[] };
}

/** One hook's run, as the activity reports it: its output, or why it has none. */
export interface HookRun {
  name: string;
  exitCode: number | null;
  timedOut: boolean;
  /** The hook ran and exited 0. A failure is a warning only; its output (an exit-2 deny) still counts. */
  success: boolean;
  output?: HookOutput;
  /** Set when the hook failed: crash, timeout, bad output, non-zero exit other than 2. */
  warning?: string;
}

/**
 * The aggregated decision of every hook of one event, as the workflow sees it. Plain JSON,
 * recorded in history as the hook activity's result: replay reads it and never runs a hook again.
 */
export interface HookDecision {
  /** How many hooks ran. */
  ran: number;
  /** `continue: false` from any hook: stop the agent. */
  stop: boolean;
  /** Any `block` or `deny`. */
  blocked: boolean;
  decision: 'allow' | 'ask' | 'block' | 'deny';
  /** Gemini CLI's effective reason: stop reasons, else reasons (joined with newlines). */
  reason?: string;
  systemMessage?: string;
  additionalContext?: string;
  clearContext?: boolean;
  toolInput?: Record<string, unknown>;
  tailToolCall?: { name: string; args: Record<string, unknown> };
  toolConfig?: { mode: 'AUTO' | 'ANY' | 'NONE'; allowedFunctionNames: string[] };
  /** BeforeModel: a request override, stored as a blob (it may hold the conversation). */
  requestRef?: string;
  /** BeforeModel / AfterModel: a response to use instead of the model's, stored as a blob. */
  responseRef?: string;
  /** AfterModel: the response that replaced the model's (already rewritten in the transcript). */
  modelResponse?: { text: string; finishReason?: string };
  /** AfterTool: the tool's response with the hooks' context added, or replaced by a block or stop. */
  toolResponseRef?: string;
  /** One line per failed hook, for `warning` events. */
  warnings: string[];
}
