import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { LLM_LOOP_CHECK_MAX_ATTEMPTS } from '../../core/loop/llm-schedule';
import { NON_RETRYABLE_MODEL_ERRORS } from '../../core/failures';
import type { PromptInput } from '../api';
import { withLocalReads } from './local-tools';

/**
 * How long a model call may go without a heartbeat before Temporal retries it elsewhere: what a
 * worker killed mid-call costs (plus the first retry delay). The activity heartbeats every 5 s on a
 * timer and on every chunk; the SDK sends at most one per 80 % of this (12 s), so 15 s leaves room.
 * Timeouts are not part of replay's determinism check, so changing this replays old histories.
 */
export const MODEL_HEARTBEAT_TIMEOUT_MS = 15_000;

/**
 * The activities of a prompt, each with the options its kind needs. Temporal owns retries: model
 * calls back off as Gemini CLI does (5 s doubling to 30 s, 10 attempts); tools heartbeat so a dead
 * worker's call moves on quickly; utility answers (routing, next speaker) fall back to a default.
 */
export function activitiesFor(input: PromptInput) {
  const modelRetry = { initialInterval: input.modelRetryInitialMs ?? 5000, backoffCoefficient: 2, maximumInterval: 30_000, nonRetryableErrorTypes: NON_RETRYABLE_MODEL_ERRORS };
  const model = proxyActivities<Activities>({
    startToCloseTimeout: '10 minutes',
    heartbeatTimeout: input.modelHeartbeatTimeoutMs ?? MODEL_HEARTBEAT_TIMEOUT_MS,
    retry: { ...modelRetry, maximumAttempts: input.modelMaxAttempts ?? 10 },
  });
  const tools = proxyActivities<Activities>({
    startToCloseTimeout: (input.shellTimeoutMs ?? 300_000) + 60_000,
    heartbeatTimeout: input.toolHeartbeatTimeoutMs ?? 30_000,
    retry: { initialInterval: '1 second', maximumAttempts: 5 },
  });
  const loopCheck = proxyActivities<Activities>({ startToCloseTimeout: '2 minutes', retry: { ...modelRetry, maximumAttempts: LLM_LOOP_CHECK_MAX_ATTEMPTS } });
  const utility = proxyActivities<Activities>({ startToCloseTimeout: '2 minutes', retry: { maximumAttempts: 1 } });
  return {
    callModel: model.callModel,
    compressTranscript: model.compressTranscript,
    runTool: withLocalReads(tools.runTool),
    recordMessage: tools.recordMessage,
    checkForLoop: loopCheck.checkForLoop,
    routeModel: utility.routeModel,
    checkNextSpeaker: utility.checkNextSpeaker,
  };
}

export type PromptActivities = ReturnType<typeof activitiesFor>;
