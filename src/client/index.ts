/**
 * The agent's client: the only code that talks to Temporal on behalf of a user (the CLI renders
 * what these return). It is also the package's `main`, for programs that drive the agent.
 * Functions take a connected Temporal `Client` (from `connectClient`) and a workflow id.
 */
export {
  answersQueries,
  closeClient,
  connectClient,
  hasAgentSearchAttributes,
  hasPollers,
  preopenClient,
} from './connection';
export {
  answerQuestion,
  cancelPrompt,
  terminatePrompt,
  clearSession,
  closeSession,
  compressSession,
  confirmToolCall,
  decideLoop,
  promptsAwaitingApproval,
  requestCompression,
  sendToSession,
  setApprovalMode,
  startPrompt,
  topUpBudget,
  type BudgetAnswer,
} from './agent-client';
export { chatCommandText } from './chat-command';
export { followEvents, followPrompt, type FollowItem, type FollowOptions } from './follow';
export { followShown, type StoreConfig } from './follow-shown';
export { openArgsStore, showFullArgs, withFullArgs, withFullPendingArgs, type ArgsStore } from './full-args';
export { latestSession } from './sessions';
export { sessionTurns, type SessionTurns, type TurnView } from './turns';
export { listSessions, sessionWorkspacePath, type ListedSession } from './session-list';
export { sessionPromptId, sessionRecord, type SessionPrompt, type SessionRecord } from './session-prompts';
export { resumedSession, sessionOf } from './resumed-session';
export {
  LARGE_TEXT_HINT,
  modelName,
  promptInput,
  promptSettings,
  type FakeResponses,
  type PromptRequest,
  type PromptSettings,
} from './prompt-input';
export { buildPromptInput, launchPrompt, newSessionDefaults, sessionSettings } from './prompt-request';
export { InputError } from './input-error';
export { hostIsLocal, isLocalHost, splitAddress } from './address';
export { LIST_STATUSES, listPrompts, type ListedPrompt, type ListStatus } from './listing';
export {
  describeExecution,
  isAwaitingApproval,
  promptState,
  promptStatus,
  sessionStatus,
  type ExecutionSummary,
  type StatusName,
  type StatusReport,
} from './status';
export { checkPayloadSize, MAX_MESSAGE_BYTES, PayloadTooLargeError } from './payload-limit';
export { failureText } from './failure-text';
// A call's one-line summary, as the Web UI shows it on the call's activity.
export { oneLine, toolSummary } from '../workflows/state/summaries';
// The failures a caller tells apart: an unknown id, a refused update, a session id already used.
export {
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  type Client,
} from '@temporalio/client';
export type { AgentEvent } from '../core/events';
export { DEFAULT_MAX_TURNS, DEFAULT_TASK_QUEUE } from '../workflows/api';
export type {
  LoopDecision,
  PromptInput,
  PromptResult,
  PromptStatus,
  SessionInput,
  SessionStatus,
  ToolConfirmation,
} from '../workflows/api';
