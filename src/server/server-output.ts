import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';

/** The tail of a dev server's output kept for error messages. */
const TAIL_BYTES = 8192;

export function fileTail(file: string): () => string {
  return () => {
    try {
      return fs.readFileSync(file, 'utf8').slice(-TAIL_BYTES).trim();
    } catch {
      return '';
    }
  };
}

export function captureTail(child: ChildProcess): () => string {
  let buffer = '';
  const keep = (chunk: Buffer) => {
    buffer = (buffer + chunk.toString('utf8')).slice(-TAIL_BYTES);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => buffer.trim();
}
