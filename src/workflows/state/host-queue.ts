import { workflowInfo } from '@temporalio/workflow';
import { hostTaskQueue, type HostFields } from '../../core/host-routing';

/**
 * Activity options for the activities that touch the workspace or the worker's processes: the queue
 * of the prompt's host. Only schedule-to-start grows while no worker of that host polls, and we set
 * neither it nor schedule-to-close: the activity waits for the host to come back instead of failing
 * (start-to-close and heartbeat timeouts count from the start). Prompts without a host keep the shared queue.
 */
export function onHost(input: HostFields): { taskQueue?: string } {
  return input.host ? { taskQueue: hostTaskQueue(workflowInfo().taskQueue, input.host) } : {};
}

/**
 * Read-only tools may run as local activities, in whichever worker holds the workflow task, only
 * when that worker is on the workspace's machine: prompts from before hosts (one machine), and
 * prompts whose client proved every worker is on the host's machine (`hostIsLocal`). Decided by the
 * input alone, so replay takes the same branch.
 */
export function readsMayRunLocally(input: HostFields): boolean {
  return !input.host || input.hostIsLocal === true;
}
