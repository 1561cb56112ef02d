import * as fs from 'node:fs';

/**
 * Files only the agent's user may read: prompts, tool outputs and command logs live in them. A
 * directory is made 0700 and a file 0600 whatever the umask, and neither is followed through a
 * symlink someone else planted in its place.
 */

/** Creates `dir` (and its parents) 0700, or tightens it; refuses a symlink or another user's directory. */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = fs.lstatSync(dir);
  if (!stat.isDirectory()) throw new Error(`${dir} is not a directory (a symlink?): refusing to use it`);
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) throw new Error(`${dir} belongs to another user: refusing to use it`);
  if ((stat.mode & 0o077) !== 0) fs.chmodSync(dir, 0o700);
}

/** A new file, 0600, for writing: fails if anything (a file, a symlink) is already at `file`. */
export function createPrivateFile(file: string): number {
  const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
  return fs.openSync(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
}

/** `file`'s text, not following a symlink at its place. */
export function readNoFollow(file: string): string {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  try {
    return fs.readFileSync(fd, 'utf8');
  } finally {
    fs.closeSync(fd);
  }
}

/** Whether `dir` can be read or entered by users other than its owner. */
export function openToOthers(dir: string): boolean {
  try {
    return (fs.statSync(dir).mode & 0o077) !== 0;
  } catch {
    return false;
  }
}

/** Modes for what we create under the home (the umask may only narrow them). */
export const PRIVATE_DIR = 0o700;
export const PRIVATE_FILE = 0o600;

/** Creates the agent's home 0700 if it is not there; one that is stays as the user made it. */
export function createPrivateHome(home: string): void {
  if (!fs.existsSync(home)) fs.mkdirSync(home, { recursive: true, mode: PRIVATE_DIR });
}

/** A warning when others may read the home (prompts and tool outputs live there); none otherwise. */
export function openHomeWarning(home: string): string | undefined {
  if (!openToOthers(home)) return undefined;
  const mode = (fs.statSync(home).mode & 0o777).toString(8);
  return (
    `durable-agent: warning: ${home} (mode ${mode}) can be read by other users, and it holds your prompts and ` +
    `tool outputs; run: chmod 700 '${home}'\n`
  );
}
