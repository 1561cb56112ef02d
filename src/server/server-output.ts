import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';

/** The tail of a dev server's output kept for error messages. */
const TAIL_BYTES = 8192;

/**
 * Said by a server that could not listen on one of its ports. The Temporal CLI checks the ports it is
 * given before starting, but a port taken between that check and the service's own bind ends in a
 * Go panic whose stack pushes this line out of the tail, so it is looked for in the whole output.
 */
const PORT_IN_USE = /address already in use/;

/** What a dev server has written so far: its tail, and whether a bind failed for a port in use. */
export interface ServerOutput {
  tail(): string;
  portInUse(): boolean;
}

export function fileOutput(file: string): ServerOutput {
  const read = () => {
    try {
      return fs.readFileSync(file, 'utf8');
    } catch {
      return '';
    }
  };
  return { tail: () => read().slice(-TAIL_BYTES).trim(), portInUse: () => PORT_IN_USE.test(read()) };
}

export function capturedOutput(child: ChildProcess): ServerOutput {
  let buffer = '';
  let inUse = false;
  const keep = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    inUse ||= PORT_IN_USE.test(buffer.slice(-100) + text);
    buffer = (buffer + text).slice(-TAIL_BYTES);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { tail: () => buffer.trim(), portInUse: () => inUse };
}
