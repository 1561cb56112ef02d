import { createHash } from 'node:crypto';

/** What every blob reference looks like: the SHA-256 of the blob's bytes (text as UTF-8). */
export const BLOB_REF = /^sha256:[0-9a-f]{64}$/;

/** The reference a store gives `content`: stores and checkpoints compare files by it. */
export function blobRef(content: string | Uint8Array): string {
  return `sha256:${createHash('sha256').update(content).digest('hex')}`;
}
