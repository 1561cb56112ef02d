import { writesConfigThroughLink } from '../core/policy/config-paths';
import { compileGitIgnore } from './glob-match';
import { ToolError, type FileInfo, type ToolDeps, type Workspace } from './types';

/** Gemini CLI's size limit for files read by tools (20 MB). */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;

/** Bytes sampled from the start of a file to decide whether it is binary. */
const BINARY_SAMPLE_BYTES = 4096;

/**
 * Gemini CLI's heuristic: a NUL byte, or more than 30% control characters other than whitespace,
 * in the first 4 KB means binary.
 */
export function looksBinary(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, BINARY_SAMPLE_BYTES);
  if (sample.length === 0) return false;
  let controls = 0;
  for (const byte of sample) {
    if (byte === 0) return true;
    if (byte < 9 || (byte > 13 && byte < 32)) controls += 1;
  }
  return controls / sample.length > 0.3;
}

/** UTF-8 text of a file; a byte-order mark is kept as U+FEFF so it can be written back. */
export function decodeText(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
}

/**
 * Refuses to change a file whose content on disk is not what the model last saw of it (someone
 * else changed it since): the edit would be made blind, or would overwrite that change.
 */
export function checkUnchangedSinceRead(deps: ToolDeps, shown: string, bytes: Uint8Array): void {
  const known = deps.knownFiles?.[shown];
  if (known === undefined || known === deps.fingerprint(bytes)) return;
  throw new ToolError(
    'file_changed_since_read',
    `${shown} changed on disk after you last read it, so it was not changed. Read it again with read_file ` +
      'and make your change on its current content.',
  );
}

export function joinPath(dir: string, relative: string): string {
  if (relative === '' || relative === '.') return dir;
  return dir.endsWith('/') ? `${dir}${relative}` : `${dir}/${relative}`;
}

export function describeCount(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

/** How a workspace-relative directory is named in messages to the model. */
export function placeName(relative: string): string {
  return relative === '.' ? 'the workspace root' : relative;
}

/** Resolves `path` inside the workspace and requires a file there. */
export async function resolveFile(workspace: Workspace, path: string): Promise<{ absolute: string; info: FileInfo }> {
  const absolute = await workspace.resolve(path);
  const info = await workspace.stat(absolute);
  const shown = workspace.relative(absolute);
  if (!info) {
    throw new ToolError(
      'file_not_found',
      `File not found: ${shown}. Check the path (list_directory or glob can help find it).`,
    );
  }
  if (!info.isFile) {
    throw notAFile(shown, info);
  }
  return { absolute, info };
}

/** Resolves `path` (the workspace root when omitted) and requires a directory there. */
export async function resolveDirectory(workspace: Workspace, path: string | undefined): Promise<string> {
  const absolute = await workspace.resolve(path === undefined || path === '' ? '.' : path);
  const info = await workspace.stat(absolute);
  const shown = workspace.relative(absolute);
  if (!info) {
    throw new ToolError('file_not_found', `Directory not found: ${shown}.`);
  }
  if (!info.isDirectory) {
    throw new ToolError('not_a_directory', `${shown} is a file, not a directory.`);
  }
  return absolute;
}

/**
 * The workspace root's `.gitignore` as a predicate over workspace-relative paths, or undefined
 * when there is none. Nested `.gitignore` files are not read.
 */
export async function loadGitIgnore(
  deps: ToolDeps,
): Promise<((relativePath: string, isDirectory: boolean) => boolean) | undefined> {
  const { workspace } = deps;
  const file = joinPath(workspace.root, '.gitignore');
  const info = await workspace.stat(file);
  if (!info?.isFile || info.size > MAX_FILE_BYTES) return undefined;
  return compileGitIgnore(decodeText(await workspace.readFile(file)));
}

/**
 * The real path a write tool writes `filePath` to. Refused when a symlink carries it into or out of
 * a `.durable-agent` folder: the policy judged the path as written (config files ask, plan files are
 * the only writes in plan mode), so the file written must be the file judged.
 */
export async function resolveForWrite(workspace: Workspace, filePath: string): Promise<string> {
  const absolute = await workspace.resolve(filePath);
  const shown = workspace.relative(absolute);
  if (writesConfigThroughLink(filePath, shown, workspace.root)) {
    throw new ToolError(
      'policy_violation',
      `"${filePath}" leads through a symbolic link to ${shown}. The agent's configuration and plan files ` +
        `(.durable-agent) are written only by their real path, with no link on the way; use "${shown}" if ` +
        'that is the file you mean.',
    );
  }
  return absolute;
}

/** The error for a path that is not a regular file: a directory, or a FIFO, socket or device (never opened). */
export function notAFile(shown: string, info: FileInfo): ToolError {
  if (info.isDirectory) return new ToolError('not_a_file', `${shown} is a directory, not a file.`);
  return new ToolError(
    'not_a_file',
    `${shown} is not a regular file (a named pipe, socket or device); the file tools read and write regular files only.`,
  );
}
