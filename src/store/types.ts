import type { Content } from '@google/genai';

/**
 * Where conversation content lives instead of workflow history (invariant 4). Blobs are
 * content-addressed and immutable; a transcript is an append-only list of message references,
 * written by index so that a retried activity overwrites its own earlier attempt and nothing else.
 */
export interface TranscriptStore {
  /** Stores text and returns its reference (`sha256:<hex>`); storing the same text twice is free. */
  putBlob(content: string): Promise<string>;
  getBlob(ref: string): Promise<string>;
  /**
   * Stores bytes as they are (a workspace file, binary or not) and returns their reference, the sha256 of the
   * bytes: the same address as `putBlob` of the text whose UTF-8 encoding they are.
   */
  putBytes(content: Uint8Array): Promise<string>;
  /** A blob's bytes, exactly as stored (`getBlob` decodes them as UTF-8). */
  getBytes(ref: string): Promise<Buffer>;
  /**
   * Writes message `index` of a transcript. A later write to the same index replaces the earlier one
   * only if its `attempt` is not lower (a stale activity attempt cannot clobber a newer one).
   */
  writeMessage(transcriptId: string, index: number, message: Content, attempt?: number): Promise<void>;
  /** Messages `[0, length)`; throws `TranscriptGapError` if any is missing. */
  readMessages(transcriptId: string, length: number): Promise<Content[]>;
}

export class TranscriptGapError extends Error {
  constructor(transcriptId: string, index: number) {
    super(`transcript ${transcriptId} has no message ${index}: the store is not the one that wrote it`);
    this.name = 'TranscriptGapError';
  }
}

/** A blob reference the store does not hold. The message names the reference, never a path or URL. */
export class BlobMissingError extends Error {
  constructor(readonly ref: string) {
    super(`the transcript store holds no blob ${ref}`);
    this.name = 'BlobMissingError';
  }
}
