import { metricMeter, proxySinks, type Sinks } from '@temporalio/workflow';
import type { AgentEventBody } from '../../core/events';
import type { TokenUsage } from '../../core/types';

/**
 * The prompt's own Prometheus metrics (`durable_agent_` prefix), counted from its events. The SDK's
 * workflow meter drops every value while the workflow replays, so a prompt that a new worker takes
 * over (or that continues as new) never counts an event twice; the times come from workflow time,
 * rebuilt identically on replay. The SDK prefixes only its own metrics with `temporal_`; it tags ours with the
 * namespace, task queue and workflow type (prompt or sub-agent).
 */
const meter = () => metricMeter;
const PREFIX = 'durable_agent_';

/** Open tool calls' request times and approvals' ask times, by call id (workflow memory, rebuilt on replay). */
export interface MetricClock {
  calls: Map<string, number>;
  approvals: Map<string, number>;
}

export function createMetricClock(): MetricClock {
  return { calls: new Map(), approvals: new Map() };
}

/** Counts one event of the prompt's log; `model` is the model the prompt is using. */
export function countEvent(clock: MetricClock, body: AgentEventBody, model: string): void {
  switch (body.type) {
    case 'user_prompt':
      return add('prompts_started', 1, {});
    case 'finished':
      add('model_turns', 1, { model });
      return countTokens(model, body.usage);
    case 'tool_call_request':
      clock.calls.set(body.callId, Date.now());
      return;
    case 'tool_call_awaiting_approval':
      clock.approvals.set(body.callId, Date.now());
      return add('approvals_requested', 1, { tool: body.name });
    case 'tool_call_response':
      return countToolCall(clock, body.callId, body.name, body.ok ? 'ok' : (body.errorKind ?? 'error'));
    case 'loop_detected':
      return add('loop_detections', 1, { kind: body.kind, final: String(body.final) });
    case 'chat_compressed':
      return add('compressions', 1, { status: body.status });
    case 'hook':
      return add('hook_runs', body.hooks, { event: body.event, decision: body.decision });
    default:
      return;
  }
}

/** A call's decision arrived: how long it waited for a person. */
export function countApprovalDecided(clock: MetricClock, callId: string, outcome: string): void {
  const asked = clock.approvals.get(callId);
  if (asked === undefined) return;
  clock.approvals.delete(callId);
  record('approval_wait_ms', Date.now() - asked, { outcome });
  // The time a call waited for its person is not the tool's own duration.
  if (clock.calls.has(callId)) clock.calls.set(callId, Date.now());
}

/** The prompt ended (not continued as new), with its terminate reason. */
export function countEnding(outcome: string): void {
  add('prompts_ended', 1, { outcome });
}

/** The prompt switched to its fallback model (Gemini CLI's quota fallback). */
export function countFallback(from: string, to: string): void {
  add('fallback_switches', 1, { from, to });
}

/**
 * What the worker adds up outside the sandbox (worker/cost-total.ts): Temporal's workflow counters add only whole
 * numbers, so the running total in USD is kept by the worker's own code, reached through this sink.
 */
export interface CostSinks extends Sinks {
  cost: { spent(model: string, usd: number): void };
}

/**
 * One model request's cost in USD, by model, added to `durable_agent_cost_usd_total` through the sink (the worker
 * does not call it while a workflow replays, as the meter drops values then).
 */
export function countCost(model: string, usd: number): void {
  proxySinks<CostSinks>().cost.spent(model, usd);
}

function countToolCall(clock: MetricClock, callId: string, tool: string, outcome: string): void {
  add('tool_calls', 1, { tool, outcome });
  const started = clock.calls.get(callId);
  clock.calls.delete(callId);
  if (started !== undefined) record('tool_call_duration_ms', Date.now() - started, { tool, outcome });
}

function countTokens(model: string, usage: TokenUsage): void {
  for (const kind of ['input', 'output', 'cached', 'thoughts'] as const)
    if (usage[kind] > 0) add('tokens', usage[kind], { model, kind });
}

function add(name: string, value: number, tags: Record<string, string>): void {
  meter()
    .createCounter(PREFIX + name)
    .add(value, tags);
}

function record(name: string, value: number, tags: Record<string, string>): void {
  meter()
    .createHistogram(PREFIX + name, 'int', 'ms')
    .record(Math.max(0, value), tags);
}
