import { defaultHost } from '../worker/host';

export function splitAddress(address: string): { host: string; port: number } {
  const match = /^(.*):(\d+)$/.exec(address);
  if (!match) return { host: address, port: 7233 };
  return { host: match[1].replace(/^\[|\]$/g, ''), port: Number(match[2]) };
}

export function isLocalHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}

/**
 * Whether every worker is provably on `host`'s machine: the host is this machine and Temporal
 * listens on loopback here, so only this machine's workers can reach it. Then read-only tools may
 * stay local activities on the workflow's worker (workflows/state/hosts.ts); otherwise they go to
 * the host's queue like every other tool.
 */
export function hostIsLocal(host: string, temporalAddress: string): boolean {
  return host === defaultHost() && isLocalHost(splitAddress(temporalAddress).host);
}
