import type { WorkflowExecutionDescription } from '@temporalio/client';
import type { PromptStatus } from '../workflows/api';

/** A tool call of a running prompt that is executing now (`status` names it). */
export interface RunningTool {
  callId: string;
  name: string;
  args: unknown;
  /** How long its activity has run, from the server's own record; absent when it cannot be told apart. */
  runningMs?: number;
}

/** The activities that run one tool call each. */
const TOOL_ACTIVITIES = new Set(['runTool', 'callMcpTool', 'fixEdit']);

/**
 * The calls the prompt's own state marks executing. The server knows when each activity last
 * started, but not which call it runs, so a time is given only when one tool call and one tool
 * activity are in flight (a wave of read-only calls runs several at once).
 */
export function runningToolsOf(s: PromptStatus, description: WorkflowExecutionDescription): RunningTool[] {
  const calls = s.toolCalls.filter((c) => c.status === 'executing');
  const started = (description.raw.pendingActivities ?? [])
    .filter((a) => TOOL_ACTIVITIES.has(a.activityType?.name ?? ''))
    .map((a) => Number(a.lastStartedTime?.seconds ?? 0) * 1000 + Math.floor((a.lastStartedTime?.nanos ?? 0) / 1e6))
    .filter((ms) => ms > 0);
  const runningMs = calls.length === 1 && started.length === 1 ? Math.max(0, Date.now() - started[0]) : undefined;
  return calls.map(({ callId, name, args }) => ({ callId, name, args, ...(runningMs !== undefined && { runningMs }) }));
}
