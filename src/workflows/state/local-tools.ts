import { isCancellation, log, proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import type { RunToolInput } from '../../activities/run-tool';
import type { ToolOutcome } from '../../core/types';
import { isPatched, PATCHES } from '../patches';
import { toolsWhere } from '../../tools/index';
import { isReadOnly } from '../../tools/facts';

/**
 * Read-only tools that reach only the workspace run as local activities (no side effects, so a
 * rerun is harmless); the ones that reach the network, the transcript store or processes do not.
 */
export const LOCAL_READ_TOOLS: ReadonlySet<string> = new Set(
  toolsWhere((tool) => isReadOnly(tool) && tool.runsIn !== 'workflow' && tool.reach === 'workspace'),
);

/**
 * `runTool` with the read-only tools run as local activities: in the worker that holds the
 * workflow task, recorded as one marker, so a read turn costs one workflow task and one activity
 * task fewer, and less history. Local activities cannot heartbeat: one that is slow (a grep over a
 * large tree) or fails is run again as an ordinary activity. Behind `patched`, so histories recorded
 * before replay with the ordinary activity they scheduled.
 */
export function withLocalReads(
  runTool: (input: RunToolInput) => Promise<ToolOutcome>,
): (input: RunToolInput) => Promise<ToolOutcome> {
  const local = proxyLocalActivities<Activities>({ startToCloseTimeout: '5 seconds', retry: { maximumAttempts: 1 } });
  return async (input) => {
    if (!LOCAL_READ_TOOLS.has(input.name) || !isPatched(PATCHES.localReadTools)) return runTool(input);
    try {
      return await local.runTool(input);
    } catch (err) {
      if (isCancellation(err)) throw err;
      log.warn('local tool call failed; running it as an activity', {
        callId: input.callId,
        name: input.name,
        error: err instanceof Error ? err.message : String(err),
      });
      return runTool(input);
    }
  };
}
