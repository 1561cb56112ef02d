import { createWorkspace } from '../activities/tool-deps';
import { isBlobMarker } from '../core/blob-marker';
import { colorizeDiff, unifiedDiff } from '../core/diff';
import type { BlobMarker } from '../core/types';
import type { TranscriptStore } from '../store/types';
import { decodeText, looksBinary } from '../tools/tool-helpers';
import { unreadableNote } from '../client/full-args';

/** Files larger than this are described, not diffed: a preview must come up at once. */
const MAX_DIFF_BYTES = 1024 * 1024;

export interface PreviewOptions {
  /** Where `{ $blob }` markers in the arguments are read; without it (or on a miss) their preview is shown. */
  store?: Pick<TranscriptStore, 'getBlob'>;
  /** ANSI colours in diffs (for a terminal). */
  color?: boolean;
}

/** Arguments with markers replaced by text; `partial` lists the fields that hold only a marker's preview. */
export interface ExpandedArgs {
  value: unknown;
  partial: Map<string, BlobMarker>;
  /** Markers replaced by their full text from the store. */
  resolved: number;
}

/**
 * What a person should see before approving a call: for `write_file` and `replace` the unified diff
 * of the file as it is now against what the call would leave (computed here, on the client's view
 * of `workspace`), for `run_shell_command` the command and its directory, otherwise the arguments.
 */
export async function previewCall(
  name: string,
  args: unknown,
  workspace: string,
  options: PreviewOptions = {},
): Promise<string> {
  const expanded = await expandMarkers(args, options.store);
  const fields =
    typeof expanded.value === 'object' && expanded.value !== null ? (expanded.value as Record<string, unknown>) : {};
  const notes = [...expanded.partial].map(([field, m]) => `(${field}: ${unreadableNote(m.size, m.preview.length)})`);
  const body = await previewBody(name, fields, expanded, workspace, options.color ?? false);
  return [...body, ...notes].join('\n');
}

async function previewBody(
  name: string,
  args: Record<string, unknown>,
  expanded: ExpandedArgs,
  workspace: string,
  color: boolean,
): Promise<string[]> {
  const diffable =
    !expanded.partial.has('content') && !expanded.partial.has('old_string') && !expanded.partial.has('new_string');
  if (name === 'write_file' && diffable) return previewWrite(args, workspace, color);
  if (name === 'replace' && diffable) return previewReplace(args, workspace, color);
  if (name === 'run_shell_command') {
    const lines = [`$ ${text(args.command)}`, `  in ${text(args.dir_path) || '.'} (workspace ${workspace})`];
    return typeof args.description === 'string' ? [...lines, `  ${args.description}`] : lines;
  }
  return [JSON.stringify(expanded.value, null, 2)];
}

async function previewWrite(args: Record<string, unknown>, workspace: string, color: boolean): Promise<string[]> {
  const current = await readCurrent(workspace, text(args.file_path));
  const content = text(args.content);
  if (current.kind === 'unreadable') return [`${text(args.file_path)}: ${current.reason}`, 'new content:', content];
  const before = current.kind === 'text' ? current.text : undefined;
  return [describe(current), diffOrSame(before, content, current.shown, color)];
}

async function previewReplace(args: Record<string, unknown>, workspace: string, color: boolean): Promise<string[]> {
  const current = await readCurrent(workspace, text(args.file_path));
  const oldString = text(args.old_string).replace(/\r\n/g, '\n');
  const newString = text(args.new_string).replace(/\r\n/g, '\n');
  const intro = typeof args.instruction === 'string' ? [args.instruction] : [];
  if (current.kind === 'unreadable')
    return [
      ...intro,
      `${text(args.file_path)}: ${current.reason}`,
      `old_string:\n${oldString}`,
      `new_string:\n${newString}`,
    ];
  if (current.kind === 'missing') {
    if (oldString !== '')
      return [...intro, `${current.shown} does not exist: the call will fail (an empty old_string creates a file).`];
    return [...intro, describe(current), diffOrSame(undefined, newString, current.shown, color)];
  }
  if (oldString === '')
    return [...intro, `${current.shown} already exists: with an empty old_string the call will fail.`];
  const original = current.text.replace(/\r\n/g, '\n');
  const count = original.split(oldString).length - 1;
  if (count === 0) return [...intro, `old_string does not occur in ${current.shown}: the call will fail.`];
  const all = args.allow_multiple === true;
  const updated = all ? original.split(oldString).join(newString) : original.replace(oldString, () => newString);
  const warning =
    count > 1 && !all
      ? [
          `old_string occurs ${count} times in ${current.shown}; without allow_multiple the call will fail. The ` +
            `first occurrence is shown.`,
        ]
      : [];
  return [...intro, ...warning, describe(current), diffOrSame(original, updated, current.shown, color)];
}

type Current =
  | { kind: 'missing'; shown: string }
  | { kind: 'text'; shown: string; text: string }
  | { kind: 'unreadable'; reason: string };

/** The file the call targets, resolved as the tools resolve it (inside the workspace, symlinks followed). */
async function readCurrent(root: string, filePath: string): Promise<Current> {
  try {
    const workspace = await createWorkspace(root);
    const absolute = await workspace.resolve(filePath);
    const shown = workspace.relative(absolute);
    const info = await workspace.stat(absolute);
    if (!info) return { kind: 'missing', shown };
    if (!info.isFile) return { kind: 'unreadable', reason: 'not a file' };
    if (info.size > MAX_DIFF_BYTES)
      return { kind: 'unreadable', reason: `the current file is too large to diff here (${info.size} bytes)` };
    const bytes = await workspace.readFile(absolute);
    if (looksBinary(bytes)) return { kind: 'unreadable', reason: 'the current file looks binary' };
    return { kind: 'text', shown, text: decodeText(bytes) };
  } catch (err) {
    return { kind: 'unreadable', reason: `cannot read the current file: ${(err as Error).message}` };
  }
}

function describe(current: Current): string {
  return current.kind === 'missing'
    ? `${current.shown} (new file)`
    : current.kind === 'text'
      ? current.shown
      : current.reason;
}

function diffOrSame(before: string | undefined, after: string, shown: string, color: boolean): string {
  const diff = unifiedDiff(before ?? '', after, {
    oldLabel: before === undefined ? '/dev/null' : `a/${shown}`,
    newLabel: `b/${shown}`,
  });
  if (diff === '') return before === undefined ? '(an empty file)' : '(no change: the file already holds this content)';
  return (color ? colorizeDiff(diff) : diff).replace(/\n$/, '');
}

/**
 * Replaces every marker by its full text when `store` has it, else by its preview, noting where
 * (field paths such as `content` or `edits.0.text`).
 */
export async function expandMarkers(value: unknown, store: PreviewOptions['store']): Promise<ExpandedArgs> {
  const partial = new Map<string, BlobMarker>();
  let resolved = 0;
  const walk = async (v: unknown, where: string): Promise<unknown> => {
    if (isBlobMarker(v)) {
      const full = await store?.getBlob(v.$blob).catch(() => undefined);
      if (full === undefined) partial.set(where, v);
      else resolved += 1;
      return full ?? v.preview;
    }
    if (typeof v !== 'object' || v === null) return v;
    const entries = await Promise.all(
      Object.entries(v).map(async ([k, item]) => [k, await walk(item, where ? `${where}.${k}` : k)] as const),
    );
    return Array.isArray(v) ? entries.map(([, item]) => item) : Object.fromEntries(entries);
  };
  return { value: await walk(value, ''), partial, resolved };
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);
}
