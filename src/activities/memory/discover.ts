import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { isInside } from '../../config/trusted-folders';
import { compileGitIgnore } from '../../tools/glob-match';

/** Gemini CLI's bound on the downward scan for context files: directories visited, breadth first. */
export const MAX_SCAN_DIRS = 200;
/** Gemini CLI's default context file name (`context.fileName` replaces it). */
export const DEFAULT_CONTEXT_FILE = 'GEMINI.md';
const SKIPPED_DIRS = new Set(['.git', 'node_modules']);

/** Where context files are looked for: the user's home (the agent's), the workspace, the names. */
export interface MemorySources {
  workspace: string;
  /** The directory of the user-level file (durable-agent's home); absent: no user-level file. */
  home?: string;
  /** Context file names, in the order they are read within one directory. */
  fileNames: string[];
}

/** The context files found, the project root, and the files passed over because they link elsewhere. */
export interface DiscoveredMemory {
  files: string[];
  root: string;
  skipped: string[];
}

/**
 * The context files in Gemini CLI's order: the user-level file, then those from the project root
 * (the nearest ancestor with `.git`; without one, the workspace alone) down to the workspace, then
 * those in the workspace's subfolders (breadth first, at most `MAX_SCAN_DIRS` directories, the root
 * `.gitignore` honoured). Real absolute paths, each once. A file must resolve (symlinks followed)
 * inside its own root, the home for the user-level file and the project root for the others: a
 * workspace's `GEMINI.md` linking to `~/.ssh/config` would otherwise go to the model.
 */
export async function discoverMemoryFiles(sources: MemorySources): Promise<DiscoveredMemory> {
  const workspace = await fs.realpath(sources.workspace);
  const found: string[] = [];
  const skipped: string[] = [];
  const add = async (dir: string, root: string) => {
    for (const name of sources.fileNames) {
      const file = await realFile(path.join(dir, name));
      if (file === undefined || found.includes(file)) continue;
      if (isInside(file, root)) found.push(file);
      else skipped.push(`${path.join(dir, name)}: not read: it links to ${file}, outside ${root}`);
    }
  };
  const home = sources.home && (await fs.realpath(sources.home).catch(() => undefined));
  if (home) await add(home, home);
  const upward = await upwardDirs(workspace);
  for (const dir of upward) await add(dir, upward[0]);
  for (const dir of await scanDownward(workspace)) await add(dir, upward[0]);
  return { files: found, root: upward[0], skipped };
}

/** The project root first, down to the workspace. */
async function upwardDirs(workspace: string): Promise<string[]> {
  const dirs: string[] = [];
  for (let dir = workspace; ; dir = path.dirname(dir)) {
    dirs.unshift(dir);
    if (await exists(path.join(dir, '.git'))) return dirs;
    if (path.dirname(dir) === dir) return [workspace];
  }
}

/** Subdirectories of the workspace, breadth first and by name, skipping `.git`, `node_modules` and ignored ones. */
async function scanDownward(workspace: string): Promise<string[]> {
  const ignored = await readGitIgnore(workspace);
  const queue = [workspace];
  const dirs: string[] = [];
  let visited = 0;
  while (queue.length > 0 && visited < MAX_SCAN_DIRS) {
    const dir = queue.shift() as string;
    visited += 1;
    if (dir !== workspace) dirs.push(dir);
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (!entry.isDirectory() || SKIPPED_DIRS.has(entry.name)) continue;
      const child = path.join(dir, entry.name);
      const relative = path.relative(workspace, child).split(path.sep).join('/');
      if (!ignored?.(relative, true)) queue.push(child);
    }
  }
  return dirs;
}

async function readGitIgnore(workspace: string) {
  const text = await fs.readFile(path.join(workspace, '.gitignore'), 'utf8').catch(() => undefined);
  return text === undefined ? undefined : compileGitIgnore(text);
}

/** The real path of a regular file at `file`, or undefined. */
async function realFile(file: string): Promise<string | undefined> {
  try {
    const real = await fs.realpath(file);
    return (await fs.stat(real)).isFile() ? real : undefined;
  } catch {
    return undefined;
  }
}

async function exists(file: string): Promise<boolean> {
  return fs.lstat(file).then(
    () => true,
    () => false,
  );
}
