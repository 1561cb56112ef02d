import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Config } from '../config';
import { selfCommand } from './self-command';

/**
 * Whose server lives at the configured address. A client starts the embedded dev server only at an
 * address that is this home's own: the default one (no TEMPORAL_ADDRESS, no Temporal profile), or
 * the one recorded here when an embedded server of this home last ran. Anywhere else a silent
 * address belongs to someone else's Temporal (a team cluster that is restarting): starting a
 * throw-away server there would hide prompts from the team and hold the cluster's port.
 */
export function ownAddressFile(home: string): string {
  return path.join(home, 'embedded-address');
}

/** Written 0600 in the private home, like everything else the agent keeps there. */
export function recordOwnAddress(home: string, address: string): void {
  fs.mkdirSync(home, { recursive: true, mode: 0o700 });
  fs.writeFileSync(ownAddressFile(home), `${address}\n`, { mode: 0o600 });
  fs.chmodSync(ownAddressFile(home), 0o600);
}

export function isOwnAddress(config: Pick<Config, 'home' | 'temporalAddress' | 'temporalAddressChosen'>): boolean {
  if (!config.temporalAddressChosen) return true;
  try {
    return fs.readFileSync(ownAddressFile(config.home), 'utf8').trim() === config.temporalAddress;
  } catch {
    return false;
  }
}

/** The one-line reason for a silent address that is not ours to serve. */
export function cannotReachMessage(address: string, local: boolean): string {
  const own = local
    ? " It is not the address of this home's embedded server, so none is started there; unset TEMPORAL_ADDRESS " +
      `for the embedded one, or run \`${selfCommand()} server\` to make it this address.`
    : '';
  return `cannot reach Temporal at ${address}: start that server or fix TEMPORAL_ADDRESS.${own}`;
}
