import { constants, promises as fs, type Dirent, type Stats } from 'node:fs';
import path from 'node:path';
import { ToolError, type DirEntry } from '../tools/types';

/**
 * File access that stays inside the workspace even when the tree changes between the path check
 * (`Workspace.resolve`) and the use: a directory swapped for a symlink to elsewhere must not turn a
 * checked path into a read or write outside (invariant 6). Each file or directory is opened without
 * following a symlink in the last component, and the opened descriptor's own path
 * (`/proc/self/fd/N` on Linux) must still be inside before a byte is read or written. Writes and
 * directory walks go on through `/proc/self/fd/N/<name>`, which the kernel resolves from the opened
 * directory itself (openat), so a later swap of a parent cannot redirect them. Where `/proc` is
 * missing, the descriptor's device and inode are compared with those of the re-resolved path.
 */

export type IsInside = (realPath: string) => boolean;

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const DIR_FLAGS = READ_FLAGS | constants.O_DIRECTORY;
export const WRITE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** An open file or directory whose real path was checked to be inside the workspace. */
export interface Opened {
  handle: fs.FileHandle;
  /** A path that names the opened object itself (`/proc/self/fd/N`), or its checked real path. */
  base: string;
}

let procFdWorks: boolean | undefined;

/** The real path of an open descriptor, or undefined where the system cannot tell (no `/proc`). */
async function descriptorPath(handle: fs.FileHandle): Promise<string | undefined> {
  if (procFdWorks === false) return undefined;
  try {
    const real = await fs.readlink(`/proc/self/fd/${handle.fd}`);
    procFdWorks = true;
    return real;
  } catch (error) {
    if (procFdWorks === undefined) procFdWorks = false;
    if (procFdWorks) throw error;
    return undefined;
  }
}

function moved(shown: string): ToolError {
  return new ToolError(
    'path_outside_workspace',
    `${shown} changed while it was being opened: it, or a directory above it, now leads outside the workspace ` +
      ('(a symbolic link was put in its place). Nothing was read or written. Only paths inside the workspace can ' +
        'be used.'),
  );
}

/** Checks that `handle`, opened from `expected`, is still the object at a real path inside. */
async function verify(handle: fs.FileHandle, expected: string, isInside: IsInside, shown: string): Promise<string> {
  const real = await descriptorPath(handle);
  if (real !== undefined) {
    if (!isInside(real)) throw moved(shown);
    return `/proc/self/fd/${handle.fd}`;
  }
  const [opened, current, resolved] = await Promise.all([
    handle.stat(),
    fs.stat(expected).catch(() => undefined),
    fs.realpath(expected).catch(() => ''),
  ]);
  if (!current || !sameFile(opened, current) || !isInside(resolved)) throw moved(shown);
  return resolved;
}

function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/** Opens `absolute` (a real path) with `flags`, the last component not followed, and verifies it. */
export async function openInside(absolute: string, flags: number, isInside: IsInside, shown: string): Promise<Opened> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(absolute, flags, 0o666);
  } catch (error) {
    throw await translateOpenError(error, absolute, shown);
  }
  try {
    return { handle, base: await verify(handle, absolute, isInside, shown) };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** O_NOFOLLOW meets a symlink as ELOOP, or as ENOTDIR when O_DIRECTORY is set too. */
async function translateOpenError(error: unknown, absolute: string, shown: string): Promise<unknown> {
  const code = (error as { code?: string } | null)?.code;
  if (code === 'ENOENT') return new ToolError('file_not_found', `File not found: ${shown}.`);
  if (code !== 'ELOOP' && code !== 'ENOTDIR') return error;
  const isLink = await fs.lstat(absolute).then(
    (info) => info.isSymbolicLink(),
    () => false,
  );
  if (code === 'ELOOP' || isLink) return moved(shown);
  return new ToolError('not_a_directory', `${shown}: a part of this path is a file, not a directory.`);
}

/** The bytes of a regular file inside the workspace. */
export async function readFileInside(absolute: string, isInside: IsInside, shown: string): Promise<Buffer> {
  const { handle } = await openInside(absolute, READ_FLAGS, isInside, shown);
  try {
    if (!(await handle.stat()).isFile()) throw new ToolError('not_a_file', `${shown} is not a regular file.`);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/**
 * Opens directory `absolute`, creating what is missing below `root`, one component at a time from
 * the root, each opened through its verified parent without following links.
 */
export async function openDirectoryInside(
  root: string,
  absolute: string,
  isInside: IsInside,
  shown: string,
): Promise<Opened> {
  let current = await openInside(root, DIR_FLAGS, isInside, shown);
  const parts = path
    .relative(root, absolute)
    .split(path.sep)
    .filter((part) => part !== '');
  try {
    for (const part of parts) {
      const child = path.join(current.base, part);
      await fs.mkdir(child).catch((error: { code?: string }) => {
        if (error.code !== 'EEXIST') throw error;
      });
      const next = await openInside(child, DIR_FLAGS, isInside, shown);
      await current.handle.close();
      current = next;
    }
    return current;
  } catch (error) {
    await current.handle.close();
    throw error;
  }
}

/**
 * Entries of directory `absolute`. A symlinked entry is described by its target only when the
 * target is inside the workspace; one leading out is listed as a plain, empty entry.
 */
export async function listInside(absolute: string, isInside: IsInside, shown: string): Promise<DirEntry[]> {
  const dir = await openInside(absolute, DIR_FLAGS, isInside, shown);
  try {
    const names = await fs.readdir(dir.base);
    return await Promise.all(names.map(async (name) => describeEntry(path.join(dir.base, name), name, isInside)));
  } finally {
    await dir.handle.close();
  }
}

async function describeEntry(entry: string, name: string, isInside: IsInside): Promise<DirEntry> {
  const info = await targetInside(entry, isInside);
  return { name, isDirectory: info?.isDirectory() ?? false, size: info?.size ?? 0 };
}

/** `stat` of `entry`, following a symlink only when its real target is inside the workspace. */
export async function targetInside(entry: string, isInside: IsInside): Promise<Stats | undefined> {
  try {
    const own = await fs.lstat(entry);
    if (!own.isSymbolicLink()) return own;
    return isInside(await fs.realpath(entry)) ? await fs.stat(entry) : undefined;
  } catch {
    return undefined;
  }
}

/** A directory opened and verified, with its entries; undefined when it cannot be opened so. */
export async function readDirectoryInside(absolute: string, isInside: IsInside): Promise<OpenDirectory | undefined> {
  const dir = await openInside(absolute, DIR_FLAGS, isInside, absolute).catch(() => undefined);
  if (!dir) return undefined;
  const entries = await fs.readdir(dir.base, { withFileTypes: true }).catch(() => []);
  return { base: dir.base, entries, close: () => dir.handle.close() };
}

export interface OpenDirectory {
  /** Names the open directory itself: join an entry's name to it to reach the entry. */
  base: string;
  entries: Dirent[];
  close(): Promise<void>;
}
