/**
 * Hosts: a workspace lives on one machine, so the activities that touch it run on a task
 * queue of that machine's workers, `<task queue>@<host>`, while workflows and model calls stay on
 * the shared queue that every worker polls.
 */

/** What a prompt's input says about the machine that holds its workspace (absent in prompts before hosts). */
export interface HostFields {
  /** The host whose workers run the prompt's tools, hooks and MCP calls (`run --host`, default the client's). */
  host?: string;
  /** The client proved every worker is on that host's machine: read-only tools may stay local activities. */
  hostIsLocal?: boolean;
}

/** Letters, digits, '.', '_' and '-': a host name is part of a task queue name and of worker identities. */
const HOST_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** Why `name` cannot be a host name, or undefined when it can. */
export function hostNameProblem(name: string): string | undefined {
  if (HOST_NAME.test(name)) return undefined;
  const shown =
    name.trim() === '' ? 'an empty name' : JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name);
  return `${shown} is not a host name (letters, digits, '.', '_', '-'; at most 100 characters)`;
}

/** The task queue of `host`'s workers beside the shared `taskQueue`. */
export function hostTaskQueue(taskQueue: string, host: string): string {
  return `${taskQueue}@${host}`;
}

/** A worker's identity names its host, so the pollers of a queue tell which hosts serve it. */
export function workerIdentity(pid: number, host: string): string {
  return `${pid}@${host}`;
}

/** The parts of a worker identity (`pid@host`, also the SDK's default), or undefined for other identities. */
export function parseIdentity(identity: string): { pid: number; host: string } | undefined {
  const match = /^(\d+)@(.+)$/.exec(identity);
  return match ? { pid: Number(match[1]), host: match[2] } : undefined;
}

/** The host part of a worker identity (`pid@host`), or undefined for identities not made by us. */
export function hostOfIdentity(identity: string): string | undefined {
  return parseIdentity(identity)?.host;
}
