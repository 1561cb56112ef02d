import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { AgentEvent } from '../core/events';
import type { PolicyRule } from '../core/policy/types';
import type { AgentDefinition } from '../core/agents/definition';
import type { PromptCarry } from './prompt-carry';
import type { SubagentTerminateReason } from '../core/agents/recovery';
import type { HookState } from '../core/hooks/context';
import type { HooksConfig } from '../core/hooks/types';
import type { ApprovalMode, TerminateReason, TokenUsage, ToolCallStatus } from '../core/types';

/** Shared by workflows and the client: the whole message surface of a prompt (STYLE rule 12). */

export const DEFAULT_TASK_QUEUE = 'durable-agent';
export const DEFAULT_MAX_TURNS = 100;

export interface PromptInput {
  prompt: string;
  /** Real path of the workspace on the worker's machine. */
  workspace: string;
  model: string;
  approvalMode: ApprovalMode;
  /** Model requests allowed in this prompt (Gemini CLI: 100). */
  maxTurns: number;
  /** Per-call timeout of `run_shell_command`, in ms. */
  shellTimeoutMs?: number;
  /** Activity heartbeat timeout for tools, in ms: how fast a dead worker's call is retried elsewhere. */
  toolHeartbeatTimeoutMs?: number;
  /** Activity heartbeat timeout of model calls, in ms (default 15 s): how fast a dead worker's model call is retried. */
  modelHeartbeatTimeoutMs?: number;
  /** Deny a call still awaiting approval after this many ms; unset waits forever. */
  approvalTimeoutMs?: number;
  /** First retry delay of a failed model call (Gemini CLI: 5000 ms), doubled up to 30 s. */
  modelRetryInitialMs?: number;
  /** Attempts of one model call before it fails (Gemini CLI: 10). */
  modelMaxAttempts?: number;
  /** Gemini CLI's next-speaker check after an answer without calls (default off; the CLI turns it on for detached runs). */
  nextSpeakerCheck?: boolean;
  nextSpeakerModel?: string;
  /** For `model: 'auto'`: the routing classifier's model. */
  classifierModel?: string;
  /** Token budget of the prompt (input + output); reaching it pauses for a top-up. */
  maxTokens?: number;
  /** Loop detection (all three levels); on unless false. */
  loopDetection?: boolean;
  /** Models of the LLM loop check (default DEFAULT_LOOP_CHECK_MODELS). */
  loopCheckModels?: { fast: string; confirm?: string };
  /** How long a prompt paused on a loop waits for `loopDecision` before it stops (default 30 min). */
  loopDecisionTimeoutMs?: number;
  /** Rules from policy files (workspace, user and admin tiers), read by the client at its edge. */
  policyRules?: PolicyRule[];
  /**
   * Folder trust as the client decided it where it read the configuration: false means the
   * workspace's own `.durable-agent/` policies, settings and agents were left out of this input.
   * Absent in prompts started before folder trust existed.
   */
  workspaceTrusted?: boolean;
  /** `proceed_always` rules already granted (carried across continue-as-new and into sub-agents). */
  sessionRules?: PolicyRule[];
  /** The cluster has the DurableAgent* search attributes registered (see core/search-attributes). */
  searchAttributes?: boolean;
  /** Agents `invoke_agent` may start (built-ins and the user's, read at the CLI edge). */
  agents?: AgentDefinition[];
  /** Set in a sub-agent: the prompt that started it, which relays its approvals. */
  parent?: { workflowId: string; callId: string };
  /** Continue an existing transcript (a session) instead of starting one named after the workflow. */
  transcript?: { id: string; length: number };
  /** Set by the prompt itself when it continues as new: where the previous run stopped. */
  resume?: PromptCarry;
  /** Command hooks from the settings files, read by the client at its edge (Gemini CLI's format). */
  hooks?: HooksConfig;
  /** SessionStart context a session hands to its first prompt. */
  hookContext?: string;
  /** Where the prompt's hooks stood, when it continues as new. */
  hookState?: HookState;
}

export interface PromptResult {
  terminateReason: TerminateReason;
  response: string;
  turns: number;
  stats: PromptStats;
  error?: { type: string; message: string };
  /** Where the conversation stands afterwards (a session's next prompt continues from here). */
  transcript?: { id: string; length: number };
  /** `proceed_always` rules granted so far (a session keeps them for its next prompts). */
  sessionRules?: PolicyRule[];
}

export interface PromptStats {
  usage: TokenUsage;
  models: Record<string, TokenUsage>;
  toolCalls: { total: number; success: number; failed: number };
}

/** A sub-agent's run: the result object its `complete_task` produced, or why there is none. */
export interface SubagentResult {
  terminateReason: SubagentTerminateReason;
  output?: Record<string, unknown>;
  turns: number;
  stats: PromptStats;
  error?: { type: string; message: string };
}

/** A child's call awaiting approval (`pending: true`) or no longer (`false`), relayed to its parent. */
export interface ChildApprovalNotice {
  childWorkflowId: string;
  callId: string;
  name: string;
  args: unknown;
  pending: boolean;
}

export interface ToolCallView {
  callId: string;
  name: string;
  args: unknown;
  status: ToolCallStatus;
}

export interface PromptStatus {
  phase: 'running' | 'awaiting_approval' | 'loop_detected' | 'budget_exhausted' | 'finished';
  turns: number;
  approvalMode: ApprovalMode;
  /** Includes sub-agents' calls (with `childWorkflowId`), which `approve` answers through this prompt. */
  pendingApprovals: { callId: string; name: string; args: unknown; childWorkflowId?: string }[];
  toolCalls: ToolCallView[];
  response?: string;
  terminateReason?: TerminateReason;
  error?: { type: string; message: string };
  stats: PromptStats;
  eventCount: number;
  /** Earlier runs of this prompt (it continues as new when its history grows long). */
  runs: number;
}

/** `outcome` values follow Gemini CLI's ToolConfirmationOutcome. Typed by hand with the stock CLI. */
export interface ToolConfirmation {
  callId: string;
  outcome: 'proceed_once' | 'proceed_always' | 'modify' | 'cancel';
  args?: Record<string, unknown>;
  reason?: string;
  /** For `exit_plan_mode`: the approval mode to continue in (default: `default`). */
  mode?: ApprovalMode;
}

export interface EventsPage {
  events: AgentEvent[];
  /** Pass back as the next cursor. */
  next: number;
  done: boolean;
}

export const toolConfirmationSignal = defineSignal<[unknown]>('toolConfirmation');
export const setApprovalModeSignal = defineSignal<[unknown]>('setApprovalMode');
export const confirmToolCallUpdate = defineUpdate<string, [ToolConfirmation]>('confirmToolCall');
export const childApprovalSignal = defineSignal<[ChildApprovalNotice]>('childApproval');
export const statusQuery = defineQuery<PromptStatus>('status');
export const eventsQuery = defineQuery<EventsPage, [number]>('events');
