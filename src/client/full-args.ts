import * as path from 'node:path';
import { isBlobMarker } from '../core/blob-marker';
import type { AgentEvent } from '../core/events';
import { FileTranscriptStore } from '../store/file-store';
import type { TranscriptStore } from '../store/types';

/**
 * What a person is shown of a call is what runs: long strings travel through the workflow as blob
 * markers (`{ $blob, size, preview }`), and every view of a call's arguments (`pending`, `status`,
 * the approval hint and prompt, `watch`, stream-json) replaces them by their full text from the
 * transcript store. A marker whose text cannot be read stays a marker with a `note` saying so:
 * never a silent preview.
 */
export interface ArgsStore {
  store: TranscriptStore;
  close(): Promise<void>;
}

/** The transcript store the workers use, as configured here: files under the home, or PostgreSQL. */
export function openArgsStore(config: { home: string; storeUrl?: string }): ArgsStore {
  if (!config.storeUrl)
    return { store: new FileTranscriptStore(path.join(config.home, 'store')), close: async () => undefined };
  // Loaded only when configured: `pg` costs every `run` on files ~20 ms of start-up.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { Pool } = require('pg') as typeof import('pg');
  const { PostgresTranscriptStore } = require('../store/postgres-store') as typeof import('../store/postgres-store');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const pool = new Pool({ connectionString: config.storeUrl, max: 2 });
  pool.on('error', () => undefined);
  return { store: new PostgresTranscriptStore({ pool }), close: () => pool.end() };
}

/** Says plainly that a string is not all there: what `note` of an unreadable marker reads. */
export function unreadableNote(size: number, previewLength: number): string {
  return (
    `not shown in full: this argument is ${size} characters long and the transcript store that holds it could not be ` +
    `read from here; "preview" is only its first ${previewLength} characters`
  );
}

/** Every marker in `value` replaced by its full text, or kept with a `note` when the store cannot give it. */
export async function showFullArgs(value: unknown, store: ArgsStore['store'] | undefined): Promise<unknown> {
  if (isBlobMarker(value)) {
    const full = await store?.getBlob(value.$blob).catch(() => undefined);
    return full ?? { ...value, note: unreadableNote(value.size, value.preview.length) };
  }
  if (Array.isArray(value)) return Promise.all(value.map((v) => showFullArgs(v, store)));
  if (typeof value !== 'object' || value === null) return value;
  const entries = await Promise.all(
    Object.entries(value).map(async ([k, v]) => [k, await showFullArgs(v, store)] as const),
  );
  return Object.fromEntries(entries);
}

/** An event with the arguments of the call it names shown in full (see `showFullArgs`). */
export async function withFullArgs(event: AgentEvent, store: ArgsStore['store'] | undefined): Promise<AgentEvent> {
  if (event.type !== 'tool_call_request' && event.type !== 'tool_call_awaiting_approval') return event;
  return { ...event, args: (await showFullArgs(event.args, store)) as typeof event.args };
}

/** Calls awaiting approval, as `status` and `pending` show them. */
export async function withFullPendingArgs<T extends { args: unknown }>(
  calls: T[],
  store: ArgsStore['store'] | undefined,
): Promise<T[]> {
  return Promise.all(calls.map(async (call) => ({ ...call, args: await showFullArgs(call.args, store) })));
}
