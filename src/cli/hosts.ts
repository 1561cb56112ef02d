import { InvalidArgumentError } from 'commander';
import { hostNameProblem } from '../core/hosts';
import { splitAddress, isLocalHost } from './runtime';
import { defaultHost } from './default-host';

export { defaultHost };

/** Commander parser of `--host`: a bad name is a usage error that says what a host name may hold. */
export function hostOption(value: string): string {
  const problem = hostNameProblem(value);
  if (problem) throw new InvalidArgumentError(problem);
  return value;
}

/**
 * Whether every worker is provably on `host`'s machine: the host is this machine and Temporal
 * listens on loopback here, so only this machine's workers can reach it. Then read-only tools may
 * stay local activities on the workflow's worker (workflows/state/host-routing.ts); otherwise they go to
 * the host's queue like every other tool.
 */
export function hostIsLocal(host: string, temporalAddress: string): boolean {
  return host === defaultHost() && isLocalHost(splitAddress(temporalAddress).host);
}

/**
 * Commander parser of `--shutdown-grace`: `30s`, `2m`, `500ms` or a number of seconds, in ms.
 * Zero lets nothing finish (running activities are cancelled at once).
 */
export function graceOption(value: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(value.trim());
  if (!match) throw new InvalidArgumentError('expected a duration such as 30s, 2m or 500ms');
  const unit = match[2] === 'ms' ? 1 : match[2] === 'm' ? 60_000 : 1000;
  const ms = Math.round(Number(match[1]) * unit);
  if (ms > 24 * 3_600_000) throw new InvalidArgumentError('a shutdown grace period of at most 24h');
  return ms;
}

/** The default grace period of `worker` and `server`: a typical tool call finishes within it. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 30_000;
