import * as os from 'node:os';
import type { NativeConnection, Worker } from '@temporalio/worker';
import { hostOfIdentity } from '../core/host-routing';

/**
 * Joins `hostWorker` (activities only, on this host's queue `<task queue>@<host>`, for the
 * activities that touch its workspaces) to `main` (workflows and every activity on the
 * shared queue). The SDK serves one task queue per Worker, so the two run together: `main.run()`
 * runs both and ends when both have, `main.shutdown()` stops both (each lets its running activities
 * finish within its grace time), and either failing stops the other.
 */
export function joinHostWorker(main: Worker, hostWorker: Worker): void {
  const stopHost = () => {
    if (hostWorker.getState() === 'RUNNING') hostWorker.shutdown();
  };
  const stopMain = main.shutdown.bind(main);
  main.shutdown = () => {
    stopHost();
    if (main.getState() === 'RUNNING') stopMain();
  };
  const runMain = main.run.bind(main);
  main.run = async () => {
    const both = [runMain().finally(stopHost), hostWorker.run().finally(() => main.shutdown())];
    const [mainEnd, hostEnd] = await Promise.allSettled(both);
    for (const end of [mainEnd, hostEnd]) if (end.status === 'rejected') throw end.reason;
  };
}

/** How often a worker with the file store looks for other hosts' workers on its queue. */
const STORE_CHECK_MS = 30_000;

/**
 * A worker keeping transcripts in files under its own home, on a queue that other hosts' workers
 * also serve, cannot work: a prompt's model calls and its tools land on different machines, and
 * each reads only its own files. It says so once, naming the setting that fixes it.
 * Hosts are told apart by worker identities (`pid@host`, core/host-routing.ts). Returns the stop function.
 */
export function watchForOtherHosts(
  options: { connection: NativeConnection; namespace: string; taskQueue: string; host: string },
  warn: (message: string) => void,
): () => void {
  let warned = false;
  const check = async () => {
    const others = new Set<string>();
    for (const taskQueueType of [1, 2]) {
      const response = await options.connection.workflowService.describeTaskQueue({
        namespace: options.namespace,
        taskQueue: { name: options.taskQueue, kind: 1 },
        taskQueueType,
      });
      for (const poller of response.pollers ?? []) {
        const host = hostOfIdentity(poller.identity ?? '');
        if (host && host !== options.host) others.add(host);
      }
    }
    if (others.size === 0 || warned) return;
    warned = true;
    warn(
      `this worker (host ${options.host}) keeps transcripts in files under its own home, but workers of ` +
        `${[...others].sort().join(', ')} serve the same task queue: a prompt's model calls and tools run on ` +
        `different hosts and each reads only its own files. Unless every host shares this home directory, set ` +
        `DURABLE_AGENT_STORE=postgres://user:password@db-host/durable_agent on every worker (README: Shared store).`,
    );
  };
  const run = () => void check().catch(() => undefined);
  const first = setTimeout(run, 1000);
  const timer = setInterval(run, STORE_CHECK_MS);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}

/** This machine's host name as a host queue takes it (characters a queue name refuses become '-'). */
export function defaultHost(): string {
  const name = os
    .hostname()
    .replace(/[^A-Za-z0-9._-]/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '');
  return name.slice(0, 100) || 'localhost';
}
