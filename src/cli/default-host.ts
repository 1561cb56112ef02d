import * as os from 'node:os';

/** This machine's host name as a host queue takes it (characters a queue name refuses become '-'). */
export function defaultHost(): string {
  const name = os
    .hostname()
    .replace(/[^A-Za-z0-9._-]/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '');
  return name.slice(0, 100) || 'localhost';
}
