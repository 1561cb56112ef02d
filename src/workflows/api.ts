import type { HostFields } from '../core/host-routing';
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { AgentEvent } from '../core/events';
import type { PolicyRule } from '../core/policy/types';
import type { AgentDefinition } from '../core/agents/definition';
import type { SubagentTerminateReason } from '../core/agents/recovery';
import type { HookState } from '../core/hooks/context';
import type { HooksConfig } from '../core/hooks/types';
import type { LoopState } from '../core/loop/types';
import type { ModelUnavailability } from '../core/model-availability';
import type { QuestionAnswer } from '../core/questions';
import type { McpCatalog, McpServerConfig } from '../core/mcp';
import type { WebSettings } from '../core/web';
import type { PromptStats } from '../core/prompt-stats';
import type { ModelPrice } from '../core/models/prices';
import type { ApprovalMode, NewPart, TerminateReason, ToolCallStatus, ToolOutcome } from '../core/types';
import type { Todo } from '../tools/write-todos';
import type { PromptShape, SystemMdPaths } from '../core/prompt/shape';
import type { Topic } from '../tools/update-topic';
import type { CheckpointFields, TurnRecordFields } from '../core/checkpoints';
import type { MessageMedia } from '../core/media';
import type * as Spend from '../core/spend-limit';

/** Shared by workflows and the client: the whole message surface of a prompt. */

export const DEFAULT_TASK_QUEUE = 'durable-agent';
export const DEFAULT_MAX_TURNS = 100;

/** `maxTokens`, `maxCostUsd` (core/spend-limit): the prompt's token budget and spending limit. */
export interface PromptInput extends HostFields, CheckpointFields, Spend.SpendInput {
  prompt: string;
  /** Images sent with the prompt (stored references): they join its first user message after the text. */
  media?: MessageMedia[];
  /** Real path of the workspace on the worker's machine. */
  workspace: string;
  model: string;
  approvalMode: ApprovalMode;
  /** Model requests allowed in this prompt (Gemini CLI: 100). */
  maxTurns: number;
  /**
   * Gemini CLI's `maxSessionTurns`: model requests allowed in the whole session, its prompts together (a prompt run
   * alone is its own session). Unset: no limit.
   */
  maxSessionTurns?: number;
  /** Set by a session with `maxSessionTurns`: the model requests its earlier prompts made. */
  sessionTurns?: number;
  /** Per-call timeout of `run_shell_command`, in ms. */
  shellTimeoutMs?: number;
  /** Activity heartbeat timeout for tools, in ms: how fast a dead worker's call is retried elsewhere. */
  toolHeartbeatTimeoutMs?: number;
  /**
   * Activity heartbeat timeout of model calls, in ms (default 15 s): how fast a dead worker's model call is retried.
   */
  modelHeartbeatTimeoutMs?: number;
  /** Deny a call still awaiting approval after this many ms; unset waits forever. */
  approvalTimeoutMs?: number;
  /** First retry delay of a failed model call (Gemini CLI: 5000 ms), doubled up to 30 s. */
  modelRetryInitialMs?: number;
  /** Attempts of one model call before it fails (Gemini CLI: 10). */
  modelMaxAttempts?: number;
  /**
   * Gemini CLI's next-speaker check after an answer without calls (default off; the CLI turns it on for detached runs).
   */
  nextSpeakerCheck?: boolean;
  nextSpeakerModel?: string;
  /** For `model: 'auto'`: the routing classifier's model. */
  classifierModel?: string;
  /**
   * Settings' `modelConfigs.modelIdResolutions`: a requested model name → the one to send, over the catalogue's
   * retired-name table (core/models/).
   */
  modelResolutions?: Record<string, string>;
  /** Settings' `model.prices`: USD per million tokens by model, over the catalogue's (core/models/prices). */
  modelPrices?: Record<string, ModelPrice>;
  /** One edit fixer model call after a `replace` whose old_string was not found; on unless false. */
  editFixer?: boolean;
  /** The edit fixer's model (default: state/settings.ts). */
  editFixerModel?: string;
  /** Loop detection (all three levels); on unless false. */
  loopDetection?: boolean;
  /** Models of the LLM loop check (defaults: state/settings.ts). */
  loopCheckModels?: { fast: string; confirm?: string };
  /** How long a prompt paused on a loop waits for `loopDecision` before it stops (default 30 min). */
  loopDecisionTimeoutMs?: number;
  /** Events at which a run continues as new (default 2,000); lowered only by tests, to reach the cap in fewer turns. */
  maxRunEvents?: number;
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
  /** Models a session's earlier prompts found out of quota, and until when: the prompt goes to the fallback. */
  unavailableModels?: ModelUnavailability[];
  /** The cluster has the DurableAgent* search attributes registered (see core/search-attributes). */
  searchAttributes?: boolean;
  /** Agents `invoke_agent` may start (built-ins and the user's, read at the CLI edge). */
  agents?: AgentDefinition[];
  /** Set in a sub-agent: the prompt that started it, which relays its approvals. */
  parent?: { workflowId: string; callId: string };
  /** Continue an existing transcript (a session) instead of starting one named after the workflow. */
  transcript?: { id: string; length: number };
  /**
   * Set by the prompt itself when it continues as new: where the previous run stopped. Runs made before the state
   * had pieces wrote a flat record instead, which `prompt/carry.ts` knows and upgrades.
   */
  resume?: PromptCarry | Record<string, unknown>;
  /** Command hooks from the settings files, read by the client at its edge (Gemini CLI's format). */
  hooks?: HooksConfig;
  /** `context.fileName` of the settings: the context file names (absent: `GEMINI.md`). */
  contextFileNames?: string[];
  /** `mcpServers` of the settings files (Gemini CLI's format), discovered at the start of each run. */
  mcpServers?: Record<string, McpServerConfig>;
  /** `webFetch` of the user's settings (`web_fetch` may reach private addresses). */
  web?: WebSettings;
  /** SessionStart context a session hands to its first prompt. */
  hookContext?: string;
  /** SessionStart's `systemMessage`, which the session's first prompt shows as a `hook` event. */
  hookSystemMessage?: string;
  /** Where the prompt's hooks stood, when it continues as new. */
  hookState?: HookState;
  /** Nobody follows this prompt as it runs (detached, or no terminal): its system prompt says nobody can answer. */
  unattended?: boolean;
  /** `GEMINI_SYSTEM_MD` / `GEMINI_WRITE_SYSTEM_MD`, resolved by the client to absolute paths. */
  systemMd?: SystemMdPaths;
}

export type { PromptStats };

/** `costLimitUsd` (core/spend-limit): the spending limit at the end, top-ups included. */
export interface PromptResult extends TurnRecordFields, Spend.SpendCarry {
  terminateReason: TerminateReason;
  response: string;
  turns: number;
  stats: PromptStats;
  error?: { type: string; message: string };
  /** Where the conversation stands afterwards (a session's next prompt continues from here). */
  transcript?: { id: string; length: number };
  /** `proceed_always` rules granted so far (a session keeps them for its next prompts). */
  sessionRules?: PolicyRule[];
  /** Models known out of quota when the prompt ended, and until when (a session hands them on). */
  unavailableModels?: ModelUnavailability[];
  todos?: Todo[];
  topics?: Topic[];
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

/** `costLimit` (core/spend-limit): set when the prompt has a spending limit. */
export interface PromptStatus extends TurnRecordFields, Spend.SpendStatus {
  phase: 'running' | 'awaiting_approval' | 'awaiting_answer' | 'loop_detected' | 'budget_exhausted' | 'finished';
  turns: number;
  approvalMode: ApprovalMode;
  /** Includes sub-agents' calls (with `childWorkflowId`), which `approve` answers through this prompt. */
  pendingApprovals: { callId: string; name: string; args: unknown; childWorkflowId?: string }[];
  /** `ask_user` calls waiting for `answerQuestion` (absent when there are none). */
  pendingQuestions?: { callId: string; questions: unknown }[];
  toolCalls: ToolCallView[];
  response?: string;
  terminateReason?: TerminateReason;
  error?: { type: string; message: string };
  stats: PromptStats;
  eventCount: number;
  /** The prompt's host, absent for prompts started before hosts. */
  host?: string;
  /** Earlier runs of this prompt (it continues as new when its history grows long). */
  runs: number;
  todos?: Todo[];
  /** The chapters the model named (`update_topic`), oldest first. */
  topics?: Topic[];
}

/** `outcome` values follow Gemini CLI's ToolConfirmationOutcome. Typed by hand with the stock CLI. */
export interface ToolConfirmation {
  callId: string;
  /** `proceed_always_server` (an MCP call): every tool of its server; `proceed_always_tool` is `proceed_always`. */
  outcome: 'proceed_once' | 'proceed_always' | 'proceed_always_tool' | 'proceed_always_server' | 'modify' | 'cancel';
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

/** The payload schemas of `toolConfirmation`/`confirmToolCall` and `setApprovalMode`, shared with the client. */
export { approvalModeSchema, toolConfirmationSchema } from '../core/confirmation';
export { childApprovalSchema, loopDecisionSchema, steerSchema, topUpSchema } from '../core/signal-schemas';
export type { LoopDecision } from '../core/signal-schemas';

export const toolConfirmationSignal = defineSignal<[unknown]>('toolConfirmation');
export const setApprovalModeSignal = defineSignal<[unknown]>('setApprovalMode');
export const confirmToolCallUpdate = defineUpdate<string, [ToolConfirmation]>('confirmToolCall');
/** An answer to an `ask_user` call (payload: `questionAnswerSchema` in core/questions), as a signal or an update. */
export const answerQuestionSignal = defineSignal<[unknown]>('answerQuestion');
export const submitAnswerUpdate = defineUpdate<string, [unknown]>('submitAnswer');
export const childApprovalSignal = defineSignal<[unknown]>('childApproval');
export const statusQuery = defineQuery<PromptStatus>('status');
export const eventsQuery = defineQuery<EventsPage, [number]>('events');

// The prompt's carry across continue-as-new, and its messages beyond approvals and status.

/** Where the prompt stands in its transcript, and the user message the next request will carry. */
export type Cursor = { transcriptId: string; length: number; append: NewPart[] };

export interface CallRecord {
  callId: string;
  name: string;
  /** Arguments as the workflow holds them: large strings are blob markers. */
  args: Record<string, unknown>;
  status: ToolCallStatus;
  decision?: ToolConfirmation;
  /** For `ask_user`: the user's answer, once given. */
  answer?: QuestionAnswer;
  /** Set once the call has its one function response. */
  outcome?: ToolOutcome;
}

/**
 * What a long prompt hands to its next run when it continues as new: each piece of its state whole (everything the
 * loop, the queries and the handlers read), and nothing that grows with the prompt's length. The conversation itself
 * is in the transcript store; the cursor says where.
 */
export interface PromptCarry {
  progress: PromptProgress;
  context: ContextCarry;
  loop: LoopState;
  /** The newest events, the first of them numbered `base`: watchers keep their absolute cursors across runs. */
  log: { base: number; events: AgentEvent[] };
  calls: CallRecord[];
  cursor: Cursor;
}

/** Where the prompt stands: its model, mode, turns, answer so far, usage and granted rules. */
export interface PromptProgress extends TurnRecordFields {
  model: string;
  /** The one fallback from the strong to the fast model has happened. */
  fellBack: boolean;
  /** Models known out of quota, and until when (workflow time); absent in runs from before it. */
  unavailable?: ModelUnavailability[];
  mode: ApprovalMode;
  /** The mode `enter_plan_mode` left, restored by `exit_plan_mode` unless the approver picks one. */
  modeBeforePlan?: ApprovalMode;
  turns: number;
  response: string;
  stats: PromptStats;
  /** Allow rules added by `proceed_always`, for the rest of the prompt (and what it hands on). */
  sessionRules: PolicyRule[];
  /** Last value written to the status search attribute (the client starts prompts as running). */
  publishedStatus?: string;
  /** Runs of this prompt before the current one, for `status`. */
  runs: number;
  /** The model's todo list (`write_todos`); absent until it writes one. */
  todos?: Todo[];
  /** The chapters the model named (`update_topic`); absent until it names one. */
  topics?: Topic[];
}

/** What decides the next request: compression, steering, the token budget, the skills found at the start. */
export interface ContextCarry extends Pick<PromptShape, 'skills'>, Spend.SpendCarry {
  /** `promptTokenCount` of the last response: drives compression and the overflow check. */
  lastPromptTokens: number;
  forceCompress: boolean;
  compressionFailed: boolean;
  compressions: number;
  /** Messages sent while the prompt works, for the next model request. */
  steering: string[];
  /** Tokens this prompt may use before it pauses for a top-up (`--max-tokens`). */
  tokenBudget?: number;
  /**
   * Fingerprints of the files as the model last saw them (read, or written by its edits), by
   * workspace-relative path, newest last and at most `MAX_KNOWN_FILES`: an edit of a file that
   * changed on disk since is refused. Absent in carries made before it existed.
   */
  knownFiles?: Record<string, string>;
  /** Store reference of the project context loaded at the prompt's start (absent: none, or an older run). */
  memoryRef?: string;
}

/** A message from the user while the prompt works: delivered with the next model request. */
export const steerSignal = defineSignal<[unknown]>('steer');

/** Compress the conversation before the next model request, whatever its size. */
export const compressSignal = defineSignal<[]>('compress');

/**
 * `{"tokens": N}` raises a paused prompt's token budget by N, `{"usd": N}` its spending limit by N US dollars;
 * `"stop"` (or `{"stop": true}`) ends it.
 */
export const topUpBudgetSignal = defineSignal<[unknown]>('topUpBudget');

/** `{"action": "continue" | "disable" | "stop"}` (or the bare string): a person's answer to a flagged loop. */
export const loopDecisionSignal = defineSignal<[unknown]>('loopDecision');

/** What a parent prompt passes to one sub-agent run. */
export type SubagentInput = Omit<PromptInput, 'maxTurns' | 'prompt'> & {
  agent: AgentDefinition;
  /** The task, or only its start when `promptRef` is set. */
  prompt: string;
  /** Store reference of a task too long for history (the parent model's string was a blob marker). */
  promptRef?: string;
  /** The parent's project context (store reference), added to the sub-agent's system instruction too. */
  memoryRef?: string;
  /** The parent's MCP discovery, reused: the sub-agent's MCP tools come from it (no discovery of its own). */
  mcp?: McpCatalog;
};

// The session: its input, its status, its messages.

/** Everything a session's prompts share, and where its conversation stands. */
/** `costLimitUsd`, `spentUsd` (core/spend-limit): the limit its prompts share and what they spent. */
export interface SessionInput extends Spend.SessionSpendCarry {
  /** Settings of every prompt of the session (its `prompt` and `transcript` are set per message). */
  defaults: Omit<PromptInput, 'prompt' | 'transcript'>;
  transcript?: { id: string; length: number };
  sessionRules?: PolicyRule[];
  /** Messages not yet run, carried across continue-as-new. */
  queue?: QueuedMessage[];
  promptCount?: number;
  /** Models the session's prompts found out of quota, and until when, carried across continue-as-new. */
  unavailableModels?: ModelUnavailability[];
  /** Model requests of the session's prompts so far, carried across continue-as-new (only with `maxSessionTurns`). */
  sessionTurns?: number;
}

/** `model`: the prompt's model when the message named one (the session's default otherwise). */
export type QueuedMessage = { promptId: string; text: string; model?: string; media?: MessageMedia[] };

/** `cost` (core/spend-limit): the limit its prompts share and what they spent. */
export interface SessionStatus extends Spend.SessionSpendStatus {
  current?: string;
  queued: QueuedMessage[];
  prompts: number;
  transcriptLength: number;
  closed: boolean;
}

/** Adds a message: it runs as the session's next prompt, after those before it. Returns that prompt's id. */
export const sendMessageUpdate = defineUpdate<string, [Spend.SessionMessage]>('sendMessage');
export const closeSessionSignal = defineSignal('closeSession');
export const sessionStatusQuery = defineQuery<SessionStatus>('sessionStatus');
/** Chat's `/clear` and `/compress` on an idle session; shapes in session-commands.ts. */
export const clearSessionUpdate = defineUpdate<string, []>('clearSession');
export const compressSessionUpdate = defineUpdate<{ status: string; originalTokens: number; newTokens: number }, []>(
  'compressSession',
);
