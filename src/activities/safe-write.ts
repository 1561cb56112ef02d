import { randomBytes } from 'node:crypto';
import { constants, promises as fs, type Stats } from 'node:fs';
import path from 'node:path';
import { ToolError } from '../tools/types';
import { openDirectoryInside, openInside, WRITE_FLAGS, type IsInside, type Opened } from './safe-fs';

/**
 * Writes that a killed worker cannot leave half done. The new content goes to a temporary file
 * beside the target, which then replaces it with one rename: a reader, or the retry of a call whose
 * worker died mid-write, sees the old content or the new one, never an emptied file (a `replace`
 * could not rebuild its text from an emptied file). Both go through the verified parent directory,
 * so a swapped parent cannot redirect them. A file a rename would change more than its content for
 * (other hard links, another owner, no write permission, a name too long for a companion) is
 * written in place as before.
 */

const TEMP_SUFFIX = '.durable-agent.tmp';
const CREATE_TEMP = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
/** Room for the temporary name's prefix and suffix within the usual 255-byte name limit. */
const MAX_RENAMED_NAME = 200;

/** Whether directory entry `entry` is a write's temporary file for `name` (left by a killed worker). */
export function isWriteTemp(name: string, entry: string): boolean {
  return entry.startsWith(`.${name}.`) && entry.endsWith(TEMP_SUFFIX);
}

/** Replaces the content of file `absolute` (created if missing, parents too); a symlink at its name is refused. */
export async function writeFileInside(
  root: string,
  absolute: string,
  content: string,
  isInside: IsInside,
  shown: string,
): Promise<void> {
  const dir = await openDirectoryInside(root, path.dirname(absolute), isInside, shown);
  try {
    const name = path.basename(absolute);
    const existing = await fs.lstat(path.join(dir.base, name)).catch(() => undefined);
    if (Buffer.byteLength(name) > MAX_RENAMED_NAME || (existing && !replaceable(existing))) {
      await writeInPlace(dir, name, content, isInside, shown);
    } else {
      await writeAndRename(dir.base, name, content, existing?.mode);
    }
  } finally {
    await dir.handle.close();
  }
}

/** A plain file of ours, with one link and write permission, can be replaced whole by a rename. */
function replaceable(info: Stats): boolean {
  const ours = process.getuid === undefined || info.uid === process.getuid();
  return info.isFile() && info.nlink === 1 && ours && (info.mode & 0o200) !== 0;
}

async function writeAndRename(dirBase: string, name: string, content: string, mode?: number): Promise<void> {
  const temp = path.join(dirBase, `.${name}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`);
  const handle = await fs.open(temp, CREATE_TEMP, 0o666);
  try {
    try {
      await handle.writeFile(content, 'utf8');
      if (mode !== undefined) await handle.chmod(mode & 0o7777);
    } finally {
      await handle.close();
    }
    await fs.rename(temp, path.join(dirBase, name));
  } catch (error) {
    await fs.unlink(temp).catch(() => undefined);
    throw error;
  }
}

/** Rewrites the file's own bytes, keeping its inode: its links, owner and mode stay. */
async function writeInPlace(dir: Opened, name: string, content: string, isInside: IsInside, shown: string) {
  const file = await openInside(path.join(dir.base, name), WRITE_FLAGS, isInside, shown);
  try {
    if (!(await file.handle.stat()).isFile()) throw new ToolError('not_a_file', `${shown} is not a regular file.`);
    await file.handle.truncate(0);
    await file.handle.writeFile(content, 'utf8');
  } finally {
    await file.handle.close();
  }
}

/** Removes regular file `absolute` through its verified parent directory; a symlink is refused. */
export async function removeFileInside(
  root: string,
  absolute: string,
  isInside: IsInside,
  shown: string,
): Promise<void> {
  const dir = await openDirectoryInside(root, path.dirname(absolute), isInside, shown);
  try {
    const entry = path.join(dir.base, path.basename(absolute));
    if (!(await fs.lstat(entry)).isFile()) throw new ToolError('not_a_file', `${shown} is not a regular file.`);
    await fs.unlink(entry);
  } finally {
    await dir.handle.close();
  }
}
