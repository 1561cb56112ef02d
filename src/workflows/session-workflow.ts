import {
  allHandlersFinished,
  ApplicationFailure,
  CancellationScope,
  CancelledFailure,
  ChildWorkflowFailure,
  condition,
  continueAsNew,
  executeChild,
  getExternalWorkflowHandle,
  setHandler,
  setWorkflowOptions,
  workflowInfo,
} from '@temporalio/workflow';
import type { PolicyRule } from '../core/policy/types';
import type { ModelUnavailability } from '../core/model-availability';
import type { agentPromptWorkflow } from './prompt-workflow';
import { fireSessionHook } from './hooks/runner';
import { registerSessionCommands } from './session-commands';
import { registerRewind } from './session-rewind';
import type { RewindRecord } from '../core/rewind';
import type { RewindableSessionInput } from './rewind-api';
import { payloadProblem } from '../core/message-input';
import { mediaProblem } from '../core/media';
import type { PromptResult } from './api';
import type { SessionMessage } from '../core/spend-limit';
import { oneLine, promptMemo } from './state/summaries';
import {
  afterPrompt,
  costCarried,
  promptCostLimit,
  reportedSpend,
  sessionCostOf,
  sessionLimitProblem,
  setSessionLimit,
  spendOfResult,
  type PromptSpend,
  type SessionCost,
} from './state/session-cost';
import { promptSpentSignal } from './spend-signals';
import {
  type QueuedMessage,
  type SessionInput,
  closeSessionSignal,
  sendMessageUpdate,
  sessionStatusQuery,
  steerSignal,
} from './api';

/**
 * One conversation: each message runs as a child `agentPromptWorkflow` that continues the shared
 * transcript, one at a time, in order; `proceed_always` rules carry from prompt to prompt. When
 * Temporal suggests it, the session continues as new between prompts, carrying its state.
 */
export async function agentSessionWorkflow(input: RewindableSessionInput): Promise<void> {
  const id = workflowInfo().workflowId;
  const state = sessionStateOf(id, input);
  registerSessionHandlers(id, state);
  registerSessionCommands(id, input, state);
  registerRewind(id, state, input.defaults);
  // A new session (not one continued as new) fires SessionStart; its context goes to the first prompt.
  if (input.promptCount === undefined) state.hookStart = await fireSessionHook(input.defaults, 'SessionStart');
  for (;;) {
    await condition(() => !state.busy && (state.queue.length > 0 || state.closed));
    const next = state.queue.shift();
    if (!next) return void (await fireSessionHook(input.defaults, 'SessionEnd'));
    state.current = next.promptId;
    const result = await runCharged(input, state, next);
    state.hookStart = undefined;
    state.count += 1;
    state.turns += result.turns ?? 0;
    state.current = undefined;
    state.transcript = result.transcript ?? state.transcript;
    state.sessionRules = result.sessionRules ?? state.sessionRules;
    // A prompt hands back every model still out of quota, so its answer replaces what the session knew.
    state.unavailable = result.unavailableModels ?? state.unavailable;
    if (workflowInfo().continueAsNewSuggested) {
      await condition(allHandlersFinished);
      await continueAsNew<typeof agentSessionWorkflow>(carryOf(input, state));
    }
  }
}

// On a versioned worker a prompt is pinned to the build that started it; the session moves to the deployment's
// current build between prompts, where it holds nothing but its queue (replay-check guards that move). Only a
// versioned worker may name a versioning behavior: the server refuses an unversioned worker's task that does
// (an unversioned worker has a build id, the bundle's hash, but no deployment name).
setWorkflowOptions(
  () => (workflowInfo().currentDeploymentVersion?.deploymentName ? { versioningBehavior: 'AUTO_UPGRADE' } : {}),
  agentSessionWorkflow,
);

/** The session's state at the start of a run: new, or carried from the run it continued as new. */
function sessionStateOf(id: string, input: RewindableSessionInput): SessionState {
  return {
    transcript: input.transcript ?? { id: `session/${id}`, length: 0 },
    sessionRules: input.sessionRules ?? [],
    queue: [...(input.queue ?? [])],
    count: input.promptCount ?? 0,
    turns: input.sessionTurns ?? 0,
    closed: false,
    unavailable: input.unavailableModels ?? [],
    busy: false,
    ...(input.lastRewind ? { lastRewind: input.lastRewind } : {}),
    cost: sessionCostOf(input),
  };
}

/** What the next run of the session starts from when it continues as new. */
function carryOf(input: RewindableSessionInput, state: SessionState): RewindableSessionInput {
  return {
    ...input,
    transcript: state.transcript,
    sessionRules: state.sessionRules,
    queue: state.queue,
    promptCount: state.count,
    ...(state.unavailable.length > 0 ? { unavailableModels: state.unavailable } : {}),
    ...turnsCarried(input, state),
    ...(state.lastRewind ? { lastRewind: state.lastRewind } : {}),
    ...costCarried(state.cost),
  };
}

/** What the session keeps between prompts; all but `current`, `closed` and the hook context is carried. */
interface SessionState {
  transcript: { id: string; length: number };
  sessionRules: PolicyRule[];
  queue: QueuedMessage[];
  count: number;
  /** Model requests of the prompts so far (a cancelled prompt's are not known), for `maxSessionTurns`. */
  turns: number;
  /** The running prompt's id. */
  current?: string;
  closed: boolean;
  /** SessionStart's context and message, for the first prompt only. */
  hookStart?: { context?: string; systemMessage?: string };
  /** Models found out of quota, and until when: each prompt starts on the fallback meanwhile. */
  unavailable: ModelUnavailability[];
  /** A `/clear`, `/compress` or rewind is running. */
  busy: boolean;
  /** The last rewind, for `rewind --undo`. */
  lastRewind?: RewindRecord;
  /** The spending limit the prompts share, and what they spent (absent: no limit). */
  cost?: SessionCost;
  /** What the running prompt said it spent as it was cancelled on its own (`promptSpent`). */
  reported?: PromptSpend;
}

function registerSessionHandlers(id: string, state: SessionState): void {
  setHandler(
    sendMessageUpdate,
    async ({ text, steer, maxCostUsd, model, media }) => {
      if (maxCostUsd !== undefined) state.cost = setSessionLimit(state.cost, maxCostUsd);
      // Steering goes to the running prompt, at its next safe boundary; otherwise the message queues.
      if (steer && state.current) {
        await getExternalWorkflowHandle(state.current).signal(steerSignal, { text });
        return state.current;
      }
      const promptId = `${id}-p${state.count + state.queue.length + (state.current ? 1 : 0) + 1}`;
      state.queue.push({ promptId, text, ...(model !== undefined && { model }), ...(media?.length && { media }) });
      return promptId;
    },
    { validator: (message) => validateMessage(message, state) },
  );
  setHandler(closeSessionSignal, () => void (state.closed = true));
  setHandler(
    promptSpentSignal,
    (payload) => void (state.reported = reportedSpend(payload, state.current) ?? state.reported),
  );
  setHandler(sessionStatusQuery, () => ({
    current: state.current,
    queued: state.queue,
    prompts: state.count,
    transcriptLength: state.transcript.length,
    closed: state.closed,
    ...(state.cost ? { cost: { ...state.cost } } : {}),
  }));
}

/** Runs the prompt with what the session has left to spend, and charges the session with what it spent. */
async function runCharged(
  input: SessionInput,
  state: SessionState,
  message: QueuedMessage,
): Promise<Partial<PromptResult>> {
  const given = promptCostLimit(state.cost);
  state.reported = undefined;
  const result = await runPrompt(input, state, message, given);
  const spend = result === 'cancelled' ? state.reported : spendOfResult(message.promptId, result);
  state.cost = afterPrompt(state.cost, given.maxCostUsd, spend);
  return result === 'cancelled' ? {} : result;
}

/** The prompt's result; 'cancelled' when it was cancelled on its own (what it spent comes by `promptSpent`). */
async function runPrompt(
  input: SessionInput,
  state: SessionState,
  message: QueuedMessage,
  costLimit: ReturnType<typeof promptCostLimit>,
): Promise<Partial<PromptResult> | 'cancelled'> {
  try {
    return await executeChild<typeof agentPromptWorkflow>('agentPromptWorkflow', {
      workflowId: message.promptId,
      // What the Web UI and `list` show of it; metadata of the start command, not compared on replay.
      staticSummary: oneLine(message.text),
      memo: { ...promptMemo({ ...input.defaults, ...modelOf(message), prompt: message.text }) },
      // A child does not inherit it: a session started with a short one (fast failover) passes it on.
      workflowTaskTimeout: workflowInfo().taskTimeoutMs,
      args: [
        {
          ...input.defaults,
          ...modelOf(message),
          prompt: message.text,
          ...(message.media ? { media: message.media } : {}),
          transcript: state.transcript,
          sessionRules: state.sessionRules,
          hookContext: state.hookStart?.context,
          ...(state.hookStart?.systemMessage ? { hookSystemMessage: state.hookStart.systemMessage } : {}),
          ...(state.unavailable.length > 0 ? { unavailableModels: state.unavailable } : {}),
          ...turnsCarried(input, state),
          ...costLimit,
        },
      ],
    });
  } catch (err) {
    // A failed prompt (turn limit, model error) still moved the conversation: go on from where it stopped.
    const cause = err instanceof ChildWorkflowFailure ? err.cause : undefined;
    if (cause instanceof ApplicationFailure) return (cause.details?.[0] ?? {}) as Partial<PromptResult>;
    // A prompt cancelled on its own (Ctrl-C in `chat` or `run --session`) leaves the session where it
    // was, its message rolled back. Before, such a cancellation failed the whole session, so no open
    // history can replay through this branch: it needs no `patched`.
    if (cause instanceof CancelledFailure && !CancellationScope.current().consideredCancelled) return 'cancelled';
    throw err;
  }
}

/**
 * The session's model requests so far, passed on only when a limit counts them: inputs of sessions without
 * `maxSessionTurns` stay as they were.
 */
function turnsCarried(input: SessionInput, state: SessionState): { sessionTurns?: number } {
  return input.defaults.maxSessionTurns === undefined ? {} : { sessionTurns: state.turns };
}

/** The model a message chose for its prompt, over the session's. */
function modelOf(message: QueuedMessage): { model?: string } {
  return message.model !== undefined ? { model: message.model } : {};
}

function validateMessage(message: SessionMessage | undefined, state: SessionState): void {
  if (state.closed) throw new Error('the session is closed');
  const problem = payloadProblem(message);
  if (problem) throw new Error(problem);
  if (!message || typeof message.text !== 'string' || !message.text.trim())
    throw new Error('a message needs non-empty text');
  if (message.model !== undefined && (typeof message.model !== 'string' || !message.model.trim()))
    throw new Error('a message’s model must be a model name');
  const media = mediaProblem(message.media);
  if (media) throw new Error(media);
  const limit = sessionLimitProblem(message.maxCostUsd, state.cost);
  if (limit) throw new Error(limit);
}
