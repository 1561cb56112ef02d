import { hostHasWorker } from '../client/host-pollers';
import type { Client } from '../client';
import type { Config } from '../config';
import { defaultHost } from './default-host';
import type { Io } from './output';
import { selfCommand } from '../runtime/self-command';

/** Looks this many times, a little apart: a worker of the host that is just starting gets a moment. */
const LOOKS = 3;
const LOOK_APART_MS = 1500;

/**
 * For `run --host X` with X another machine: says within seconds when no worker of X polls the
 * prompt's host queue, and how to start one. Temporal keeps the prompt's tool calls queued for X
 * (they have no schedule-to-start timeout), so without this the run would sit silent until one
 * comes. Returns a function that stops looking (the prompt ended first).
 */
export function noticeUnservedHost(
  config: Config,
  where: { client: Client; taskQueue: string; workflowId: string; host: string },
  io: Io,
): () => void {
  let stopped = where.host === defaultHost();
  const look = async () => {
    for (let i = 0; i < LOOKS && !stopped; i++) {
      if (await hostHasWorker(where.client, where.taskQueue, where.host).catch(() => true)) return;
      if (i < LOOKS - 1) await new Promise((r) => setTimeout(r, LOOK_APART_MS).unref());
    }
    if (!stopped) io.stderr.write(unservedHostLine(config, where));
  };
  void look();
  return () => void (stopped = true);
}

function unservedHostLine(config: Config, where: { taskQueue: string; workflowId: string; host: string }): string {
  const queue = where.taskQueue === config.taskQueue ? '' : `DURABLE_AGENT_TASK_QUEUE=${where.taskQueue} `;
  return (
    `no worker of host ${where.host} is up: prompt ${where.workflowId} waits, its tool calls queued for that host. ` +
    `Start one there with: ${queue}${selfCommand()} worker --host ${where.host}\n`
  );
}
