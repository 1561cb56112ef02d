import type { MetricGauge } from '@temporalio/common';
import { Runtime, type InjectedSinks } from '@temporalio/worker';
import type { WorkflowInfo } from '@temporalio/workflow';
import type { CostSinks } from '../workflows/state/metrics';

/**
 * `durable_agent_cost_usd_total{model=…}`: the USD this worker process has counted for its prompts, served by the
 * runtime's Prometheus exporter beside the other metrics. Temporal's counters add only whole numbers, so the
 * total is kept here, in the process, and published as a float gauge that only grows (Prometheus calls it a
 * gauge; `rate()` and `increase()` read it as a counter, a restart of the worker resets it as it resets a counter).
 * The prompts report each priced request through a sink that the SDK does not call while a workflow replays, so a
 * worker that takes a prompt over does not count again what another worker counted.
 */
const totals = new Map<string, number>();
let gauge: MetricGauge | undefined;

/** The workers' sink that adds each request's cost to the process's totals. */
export function costTotalSinks(): InjectedSinks<CostSinks> {
  return { cost: { spent: { fn: addCost, callDuringReplay: false } } };
}

/** For replay-only workers: registered so the SDK knows the sink; a replay never calls it. */
export const COST_REPLAY_SINKS: InjectedSinks<CostSinks> = {
  cost: { spent: { fn: (): void => undefined, callDuringReplay: false } },
};

/** The labels are those the SDK gives the workflows' own metrics, and the model. */
function addCost(info: WorkflowInfo, model: string, usd: number): void {
  if (typeof usd !== 'number' || !Number.isFinite(usd) || usd <= 0) return;
  const tags = { namespace: info.namespace, taskQueue: info.taskQueue, workflowType: info.workflowType, model };
  const key = JSON.stringify(tags);
  const total = (totals.get(key) ?? 0) + usd;
  totals.set(key, total);
  gauge ??= Runtime.instance().metricMeter.createGauge('durable_agent_cost_usd_total', 'float', 'USD');
  gauge.set(total, tags);
}
