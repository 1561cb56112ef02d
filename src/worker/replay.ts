import type { HistoryAndWorkflowId } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { installTemporalRuntime } from '../logger';
import { workflowSource } from './index';
import { COST_REPLAY_SINKS } from './cost-total';
import { REPLAY_SINKS } from './tracing';

/** One history that the workflow code could not replay, and why. */
export interface ReplayBreak {
  workflowId: string;
  runId: string;
  /** `DeterminismViolationError` when the code would issue other commands than the history records. */
  kind: string;
  message: string;
}

/**
 * Replays `histories` against a workflow bundle (default: the one this build runs) the way a new worker
 * would pick them up, and returns how many were replayed and those that broke.
 */
export async function replayHistories(
  histories: AsyncIterable<HistoryAndWorkflowId>,
  bundlePath?: string,
): Promise<{ replayed: number; broken: ReplayBreak[] }> {
  await installTemporalRuntime();
  const broken: ReplayBreak[] = [];
  let replayed = 0;
  const options = {
    ...workflowSource(bundlePath),
    dataConverter: { payloadConverterPath: require.resolve('../payload-converter') },
    sinks: { ...REPLAY_SINKS, ...COST_REPLAY_SINKS },
    replayName: 'replay-check',
  };
  const results = Worker.runReplayHistories(options, histories);
  for await (const result of results) {
    replayed += 1;
    if (!result.error) continue;
    const { name, message } = result.error;
    broken.push({ workflowId: result.workflowId, runId: result.runId, kind: name, message });
  }
  return { replayed, broken };
}
