import { Client, Connection } from '@temporalio/client';
import type { QueryDefinition } from '@temporalio/common';
import { SEARCH_ATTRIBUTE_NAMES } from '../core/search-attributes';
import { payloadLimitInterceptor } from './payload-limit';

export async function connectClient(
  address: string,
  namespace: string,
  connectionOptions: object = {},
): Promise<Client> {
  const opened = await takeOpened(clientKey(address, namespace, connectionOptions));
  if (opened) return opened;
  return openClient(address, namespace, connectionOptions);
}

async function openClient(address: string, namespace: string, connectionOptions: object): Promise<Client> {
  const connection = await Connection.connect({ ...connectionOptions, address });
  return new Client({ connection, namespace, interceptors: { workflow: [payloadLimitInterceptor()] } });
}

let preopened: { key: string; client: Promise<Client | undefined> } | undefined;

/**
 * For the spare process (cli/spare.ts): opens a client now, for the first `connectClient` with the
 * same address, namespace and connection options. Any other settings get a connection of their own.
 */
export function preopenClient(
  address: string,
  namespace: string,
  connectionOptions: object,
  warm: (client: Client) => Promise<unknown>,
): void {
  const client = openClient(address, namespace, connectionOptions)
    .then(async (c) => (await warm(c), c))
    .catch(() => undefined);
  preopened = { key: clientKey(address, namespace, connectionOptions), client };
}

/** What a pre-opened client must match to be used: the same server, namespace and TLS/API-key options. */
function clientKey(address: string, namespace: string, connectionOptions: object): string {
  return JSON.stringify([address, namespace, connectionOptions]);
}

async function takeOpened(key: string): Promise<Client | undefined> {
  const taken = preopened;
  preopened = undefined;
  if (taken && taken.key !== key) void taken.client.then((c) => c && closeClient(c).catch(() => undefined));
  return taken?.key === key ? taken.client : undefined;
}

export async function closeClient(client: Client): Promise<void> {
  await client.connection.close();
}

/** How long a query may wait for a worker: a prompt whose worker is gone must not hang the CLI. */
const QUERY_DEADLINE_MS = 4000;

/** A query bounded by a deadline; undefined when no worker answered in time. */
export async function queryWithin<R, A extends unknown[]>(
  client: Client,
  workflowId: string,
  def: QueryDefinition<R, A>,
  ...args: A
): Promise<R | undefined> {
  const handle = client.workflow.getHandle(workflowId);
  return client.connection
    .withDeadline(Date.now() + QUERY_DEADLINE_MS, () => handle.query(def, ...args))
    .catch(() => undefined);
}

const registeredAttributes = new WeakMap<Client, Promise<boolean>>();

/** Whether the namespace has the DurableAgent* search attributes (asked once per client). */
export function hasAgentSearchAttributes(client: Client): Promise<boolean> {
  let known = registeredAttributes.get(client);
  if (!known) {
    known = client.connection.operatorService
      .listSearchAttributes({ namespace: client.options.namespace })
      .then((r) => SEARCH_ATTRIBUTE_NAMES.every((name) => name in (r.customAttributes ?? {})))
      .catch(() => false);
    registeredAttributes.set(client, known);
  }
  return known;
}

/** Whether any worker polls `taskQueue` for workflow tasks (false when the server cannot say). */
export async function hasPollers(client: Client, taskQueue: string): Promise<boolean> {
  return (await queuePolled(client, taskQueue)) ?? false;
}

/**
 * Whether a worker answers a query of `workflowId` now. The server lists a worker that has just exited among a
 * queue's pollers for minutes, so a command that needs a worker to act asks this before relying on `hasPollers`.
 */
export async function answersQueries(client: Client, workflowId: string): Promise<boolean> {
  const handle = client.workflow.getHandle(workflowId);
  return client.connection
    .withDeadline(Date.now() + QUERY_DEADLINE_MS, () => handle.query('__stack_trace'))
    .then(
      () => true,
      () => false,
    );
}

/** Whether any worker polls `taskQueue` for workflow tasks; undefined when the server cannot say. */
export async function queuePolled(client: Client, taskQueue: string): Promise<boolean | undefined> {
  try {
    const response = await client.workflowService.describeTaskQueue({
      namespace: client.options.namespace,
      taskQueue: { name: taskQueue, kind: 1 },
      taskQueueType: 1,
    });
    return (response.pollers ?? []).length > 0;
  } catch {
    return undefined;
  }
}
