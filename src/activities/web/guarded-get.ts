import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import * as http from 'node:http';
import * as https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPrivateAddress } from './addresses';

/** The name resolver the guard wraps; a test passes one that answers differently each time (DNS rebinding). */
export type Resolver = (host: string, options: LookupOptions & { all: true }) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (host, options) =>
  new Promise((resolve, reject) => dnsLookup(host, options, (err, all) => (err ? reject(err) : resolve(all))));

/**
 * One GET whose refusal of private addresses is decided on the address the socket connects to, not
 * on the URL's text: an IP literal is judged as it is, and a name through the resolver hook of the
 * connection itself, so a name that resolved to a public address for an earlier check and to
 * loopback now is refused here, before a byte is sent.
 */
export function guardedGet(
  url: string,
  options: { signal: AbortSignal; headers: Record<string, string>; allowPrivate: boolean; resolver?: Resolver },
): Promise<http.IncomingMessage> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (!options.allowPrivate && isIP(host) && isPrivateAddress(host))
    return Promise.reject(new Error(`refused: ${host} is a private address`));
  const lookup = options.allowPrivate ? undefined : guardedLookup(options.resolver ?? systemResolver);
  const get = target.protocol === 'https:' ? https.get : http.get;
  return new Promise((resolve, reject) => {
    const request = get(target, { headers: options.headers, signal: options.signal, lookup }, resolve);
    request.on('error', reject);
  });
}

function guardedLookup(resolver: Resolver): LookupFunction {
  return (host, options, callback) => {
    resolver(host, { ...options, all: true }).then(
      (all) => {
        const refused = all.find((a) => isPrivateAddress(a.address));
        if (all.length === 0 || refused)
          return callback(
            new Error(`refused: ${host} resolves to a private address ${refused?.address ?? ''}`.trim()),
            '',
          );
        if (options.all) return (callback as (e: null, all: LookupAddress[]) => void)(null, all);
        callback(null, all[0].address, all[0].family);
      },
      (err: NodeJS.ErrnoException) => callback(err, ''),
    );
  };
}
