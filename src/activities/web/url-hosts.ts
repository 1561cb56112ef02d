import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import { isPrivateAddress } from './addresses';

/**
 * Hosts `web_fetch` refuses unless the user's settings allow private addresses: local names, and
 * every name that resolves to a loopback, private, link-local or unspecified address (a name that
 * does not resolve is refused too: nothing to fetch there). Per worker process, Gemini CLI's rate
 * limit of 10 requests per host per minute.
 */

const LOCAL_SUFFIXES = ['.localhost', '.local', '.internal'];
const RATE_WINDOW_MS = 60_000;
const MAX_PER_WINDOW = 10;
const MAX_HOSTS = 1000;
const history = new Map<string, number[]>();

export async function isPrivateHost(url: string): Promise<boolean> {
  const host = new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost' || LOCAL_SUFFIXES.some((s) => host.endsWith(s))) return true;
  if (isIP(host)) return isPrivateAddress(host);
  const addresses = await dns.lookup(host, { all: true }).catch(() => []);
  return addresses.length === 0 || addresses.some((a) => isPrivateAddress(a.address));
}

/** Counts one request to the URL's host now; false (not counted) when the host had its 10 this minute. */
export function takeRateSlot(url: string, now = Date.now()): boolean {
  const host = new URL(url).hostname.toLowerCase();
  const recent = (history.get(host) ?? []).filter((t) => t > now - RATE_WINDOW_MS);
  if (recent.length >= MAX_PER_WINDOW) {
    history.set(host, recent);
    return false;
  }
  history.delete(host);
  history.set(host, [...recent, now]);
  if (history.size > MAX_HOSTS) history.delete(history.keys().next().value as string);
  return true;
}
