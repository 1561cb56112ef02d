import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { ToolError, type FileInfo } from '../tools/types';
import type { ToolDeps, ToolLimits, Workspace } from '../tools/types';
import { createExec } from './exec';
import { workerBackgroundShells } from './background';
import { createLineMatcher } from './line-matcher';
import { listInside, readDirectoryInside, readFileInside, targetInside, type IsInside } from './safe-fs';
import { removeFileInside, writeFileInside } from './safe-write';
import { saveMemoryFact } from './memory/save';

/** Part of the tool dependencies' surface, next to `createToolDeps` and `createWorkspace`. */

/** Symlinks followed by hand (dangling ones) before giving up, as the kernel's ELOOP limit. */
const MAX_SYMLINK_HOPS = 40;
const SKIPPED_DIRECTORIES = new Set(['.git', 'node_modules']);

/** Everything a tool may touch, for one tool call. */
export async function createToolDeps(options: {
  root: string;
  signal: AbortSignal;
  shellTimeoutMs?: number;
  maxOutputChars?: number;
  grepTimeoutMs?: number;
  readBlob?: (ref: string) => Promise<string | undefined>;
  exec?: ToolDeps['exec'];
  background?: ToolDeps['background'];
  knownFiles?: ToolDeps['knownFiles'];
  home?: string;
  web?: ToolDeps['web'];
}): Promise<ToolDeps> {
  const { home } = options;
  const { shellTimeoutMs, maxOutputChars, grepTimeoutMs, signal } = options;
  const limits: ToolLimits = { shellTimeoutMs, maxOutputChars, grepTimeoutMs };
  return {
    workspace: await createWorkspace(options.root),
    exec: options.exec ?? createExec(),
    signal,
    limits,
    readBlob: options.readBlob,
    lineMatcher: (search, timeoutMs) => createLineMatcher(search, timeoutMs, signal),
    fingerprint,
    knownFiles: options.knownFiles,
    ...(options.web ? { web: options.web } : {}),
    background: options.background ?? workerBackgroundShells(home),
    ...(home ? { userMemory: { addFact: (fact: string) => saveMemoryFact(home, fact) } } : {}),
  };
}

/** The first 64 bits of the content's SHA-256, in hex: enough to tell two versions of a file apart. */
export function fingerprint(content: Uint8Array | string): string {
  return createHash('sha256').update(content).digest('hex').slice(0, 16);
}

/** The workspace rooted at the real path of `root`, which must be an existing directory. */
export async function createWorkspace(root: string): Promise<Workspace> {
  const realRoot = await fs.realpath(path.resolve(root));
  if (!(await fs.stat(realRoot)).isDirectory()) throw new Error(`Workspace root is not a directory: ${realRoot}`);
  const prefix = realRoot.endsWith(path.sep) ? realRoot : realRoot + path.sep;
  const isInside = (candidate: string) => candidate === realRoot || candidate.startsWith(prefix);
  const shown = (absolute: string) => path.relative(realRoot, absolute).split(path.sep).join('/') || '.';
  return {
    root: realRoot,
    async resolve(input) {
      if (typeof input !== 'string' || input.trim() === '') {
        throw new ToolError('invalid_tool_params', 'A path must be a non-empty string.');
      }
      const resolved = await realpathOfNearest(path.resolve(realRoot, checkedPath(input)), 0).catch(
        (error: unknown) => {
          throw unusablePath(error, input);
        },
      );
      if (!isInside(resolved)) {
        throw new ToolError(
          'path_outside_workspace',
          `Path "${input}" resolves to ${resolved}, outside the workspace ${realRoot}. Only paths inside the ` +
            `workspace can be used.`,
        );
      }
      return resolved;
    },
    relative: shown,
    readFile: (absolute) => readFileInside(absolute, isInside, shown(absolute)),
    writeFile: (absolute, content) => writeFileInside(realRoot, absolute, content, isInside, shown(absolute)),
    removeFile: (absolute) => removeFileInside(realRoot, absolute, isInside, shown(absolute)),
    stat: statOrUndefined,
    readdir: (absolute) => listInside(absolute, isInside, shown(absolute)),
    walk: (dir, options) => walkFiles(dir, isInside, options?.limit ?? Number.POSITIVE_INFINITY),
  };
}

/**
 * Real path of `target`, resolving its nearest existing ancestor with `realpath` and appending the
 * missing rest. A dangling symlink on the way is followed by hand, so a link pointing outside the
 * workspace cannot be used to create files there.
 */
async function realpathOfNearest(target: string, hops: number): Promise<string> {
  const missing: string[] = [];
  let current = target;
  for (;;) {
    try {
      return path.join(await fs.realpath(current), ...missing);
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
    const link = await fs.readlink(current).catch(() => undefined);
    if (link !== undefined) {
      if (hops >= MAX_SYMLINK_HOPS)
        throw new ToolError('execution_failed', `Too many levels of symbolic links: ${target}`);
      return realpathOfNearest(path.join(path.resolve(path.dirname(current), link), ...missing), hops + 1);
    }
    const parent = path.dirname(current);
    if (parent === current) return path.join(current, ...missing);
    missing.unshift(path.basename(current));
    current = parent;
  }
}

/** Names the file system cannot take are the model's mistake: an error result it can correct. */
function checkedPath(input: string): string {
  if (input.includes('\0')) {
    throw new ToolError(
      'invalid_tool_params',
      'A path must not contain a NUL character (\\0). Give the path without it.',
    );
  }
  return input;
}

function unusablePath(error: unknown, input: string): unknown {
  const code = (error as { code?: string } | null)?.code;
  const shown = input.length > 120 ? `${input.slice(0, 120)}...` : input;
  if (code === 'ENAMETOOLONG') {
    return new ToolError(
      'invalid_tool_params',
      `Path "${shown}" is too long: the file system allows at most 255 bytes per name and 4096 per path.`,
    );
  }
  if (code === 'ELOOP')
    return new ToolError('invalid_tool_params', `Path "${shown}" has too many levels of symbolic links.`);
  return error;
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

async function statOrUndefined(absolute: string): Promise<FileInfo | undefined> {
  try {
    const info = await fs.stat(absolute);
    return { isFile: info.isFile(), isDirectory: info.isDirectory(), size: info.size, mtimeMs: info.mtimeMs };
  } catch (error) {
    if (isMissing(error) || (error as { code?: string }).code === 'ELOOP') return undefined;
    throw error;
  }
}

/**
 * Files under `dir` in name order, relative to it with `/` separators. Each directory is opened and
 * verified inside the workspace and its subdirectories are opened through it, so a directory swapped
 * for a symlink is never walked. Symlinked directories are not followed; a symlinked file is listed
 * only when its target is inside the workspace.
 */
async function walkFiles(dir: string, isInside: IsInside, limit: number): Promise<string[]> {
  const files: string[] = [];
  const visit = async (opening: string, relative: string): Promise<void> => {
    const opened = await readDirectoryInside(opening, isInside);
    if (!opened) return;
    try {
      const entries = opened.entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of entries) {
        if (files.length >= limit) return;
        const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
        const inside = path.join(opened.base, entry.name);
        if (entry.isDirectory()) {
          if (!SKIPPED_DIRECTORIES.has(entry.name)) await visit(inside, child);
        } else if (entry.isFile() || (entry.isSymbolicLink() && (await targetInside(inside, isInside))?.isFile())) {
          files.push(child);
        }
      }
    } finally {
      await opened.close();
    }
  };
  await visit(dir, '');
  return files;
}
