import { ApplicationFailure, Context } from '@temporalio/activity';
import { FAILURES } from '../core/failures';
import { readReferencedFiles } from '../tools/at-paths';
import { ToolError } from '../tools/types';
import type { TranscriptStore } from '../store/types';
import { createToolDeps } from './tool-deps';

export interface ExpandAtPathsInput {
  workspace: string;
  /** The references as the prompt wrote them (tools/at-paths `parseAtPaths`). */
  paths: string[];
}

export interface ExpandAtPathsResult {
  /** Store reference of the files' text; absent when every file was skipped. */
  textRef?: string;
  /** Its start, for history and events. */
  preview: string;
  files: string[];
  skipped: string[];
}

/** Characters of the referenced text kept in history next to its store reference. */
const PREVIEW_CHARS = 200;

/**
 * Reads the files a prompt's `@path` references name and stores their text, so history holds only a
 * reference (invariant 4) and replay never reads the files again. A reference that names nothing fails
 * the prompt at once (non-retryable): the user mistyped it, and no retry can help.
 */
export async function expandAtPaths(store: TranscriptStore, input: ExpandAtPathsInput): Promise<ExpandAtPathsResult> {
  const deps = await createToolDeps({ root: input.workspace, signal: Context.current().cancellationSignal });
  const read = await readReferencedFiles(input.paths, deps).catch((err: unknown) => {
    if (!(err instanceof ToolError)) throw err;
    throw ApplicationFailure.create({ type: FAILURES.atPath.type, message: err.message, nonRetryable: true });
  });
  const { files, skipped } = read;
  if (read.text === '') return { preview: '', files, skipped };
  return { textRef: await store.putBlob(read.text), preview: read.text.slice(0, PREVIEW_CHARS), files, skipped };
}
