import { OUTPUT_TOKEN_LIMIT } from '../../core/models';
import { estimatePartTokens, estimateTextTokens, TRUNCATE_TOOL_OUTPUT_CHARS } from '../../core/tokens';
import { couldCross, formatUsd, requestBoundUsd, type SpendCheck } from '../../core/spend-limit';
import { getExternalWorkflowHandle, log, workflowInfo } from '@temporalio/workflow';
import type { ChildCostPause } from '../../core/signal-schemas';
import { childCostPauseSignal } from '../spend-signals';
import { isPatched, PATCHES } from '../patches';
import type { PromptRun } from '../run/prompt-run';
import { emit, publishStatus } from '../run/records';
import { raiseCostLimit, stopSpending } from '../run/context-part';
import { costSoFar, pricesOf } from '../run/records';

/** A request about to be sent: its model, its size as far as the workflow knows it, and what it is for. */
export interface PlannedRequest {
  model: string;
  promptTokens: number;
  /** `turn`, `compression`, `loop check`, `next speaker`, `routing`: named in the event. */
  what: string;
  /** Model calls the step makes with this request's size (compression: a summary and its verification). */
  calls?: number;
}

/**
 * The spending limit before one request: when the spend so far plus the most the request could cost passes the
 * limit, the request is not sent. A prompt pauses, durably, until a top-up in US dollars (then checks again) or a
 * stop; so does a sub-agent, through its parent (a sub-agent of a run from before that stops, and its parent,
 * charged with what it spent, pauses before its own next request). 'stop' means: do not send it, and send nothing
 * more. `planned` may be a function, so that a request is sized only when there is a limit to check it against.
 */
export async function checkSpend(
  run: PromptRun,
  planned: PlannedRequest | (() => PlannedRequest),
): Promise<'go' | 'stop'> {
  const state = run.state;
  if (state.context.costLimitUsd === undefined) return 'go';
  if (state.costStopped) return 'stop';
  // Sizing a request walks its new parts: done only for a prompt that has a limit.
  const request = typeof planned === 'function' ? planned() : planned;
  for (;;) {
    const check = spendCheck(run, request);
    if (!check || !couldCross(check)) return 'go';
    if (run.subagent && !pausesWithParent(run)) return stop(run);
    emit(state, { type: 'cost_limit_reached', ...check, model: request.model, request: request.what });
    const answer = await pauseOnLimit(run, check, request);
    if (answer === 'stop' || answer === undefined) return stop(run);
    raiseCostLimit(state, answer);
    emit(state, { type: 'warning', message: `spending limit raised to ${formatUsd(state.context.costLimitUsd)}` });
  }
}

/**
 * Waits for a top-up or a stop. A sub-agent's pause is shown by the prompt that started it (its status, `pending`),
 * whose `budget` answer it forwards here: the person knows that prompt's id, not the child's.
 */
async function pauseOnLimit(run: PromptRun, check: SpendCheck, request: PlannedRequest) {
  const state = run.state;
  // `pauseFor` sets the pause before it waits: the search attribute shows it to `pending` meanwhile.
  const paused = run.pauseFor('cost', undefined, { check });
  publishStatus(state);
  if (run.subagent) await tellParent(run, { paused: true, ...check, model: request.model, request: request.what });
  const answer = await paused;
  publishStatus(state);
  if (run.subagent) await tellParent(run, { paused: false });
  return answer;
}

/** A sub-agent pauses with its parent (before this, one at its limit stopped). */
function pausesWithParent(run: PromptRun): boolean {
  return run.state.input.parent !== undefined && isPatched(PATCHES.subagentCostPause);
}

type Notice = Omit<Extract<ChildCostPause, { paused: true }>, 'childWorkflowId'> | { paused: false };

async function tellParent(run: PromptRun, notice: Notice): Promise<void> {
  const parent = run.state.input.parent as NonNullable<PromptRun['state']['input']['parent']>;
  await getExternalWorkflowHandle(parent.workflowId)
    .signal(childCostPauseSignal, { childWorkflowId: workflowInfo().workflowId, ...notice })
    .catch((err) => log.warn('could not tell the parent about the spending limit', { err: String(err) }));
}

/** The run's standing before the request; undefined when the model's price is unknown (said once per model). */
function spendCheck(run: PromptRun, request: PlannedRequest): SpendCheck | undefined {
  const state = run.state;
  const bound = { ...request, maxOutputTokens: OUTPUT_TOKEN_LIMIT };
  const one = requestBoundUsd(bound, pricesOf(state));
  const nextRequestUsd = one === undefined ? undefined : one * (request.calls ?? 1);
  if (nextRequestUsd === undefined) {
    const message = `no price is known for ${request.model}: the spending limit cannot hold its requests back`;
    if (!state.log.events.some((e) => e.type === 'warning' && e.message === message))
      emit(state, { type: 'warning', message });
    return undefined;
  }
  return { spentUsd: costSoFar(state).usd, limitUsd: state.context.costLimitUsd as number, nextRequestUsd };
}

/**
 * The size of the next conversation request, without asking the API: the last response's `promptTokenCount` plus
 * the new message by the usual character estimate. A tool output kept in the store counts as the 40,000
 * characters an older output is shortened to: the workflow does not hold its text (see docs: spending limit).
 */
export function nextRequestTokens(run: PromptRun): number {
  const added = run.cursor.append.map((part) =>
    part.kind === 'text'
      ? estimateTextTokens(part.text) + (part.textRef ? STORED_PART_TOKENS : 0)
      : part.kind === 'media'
        ? estimatePartTokens({ inlineData: { mimeType: part.mimeType } })
        : part.response
          ? estimatePartTokens({ functionResponse: { name: part.name, response: part.response } })
          : STORED_PART_TOKENS,
  );
  return Math.ceil(run.state.context.lastPromptTokens + added.reduce((a, b) => a + b, 0));
}

const STORED_PART_TOKENS = TRUNCATE_TOOL_OUTPUT_CHARS / 4;

function stop(run: PromptRun): 'stop' {
  stopSpending(run.state);
  return 'stop';
}
