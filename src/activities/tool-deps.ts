import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { headTailSizes, joinTruncated } from '../tools/truncate';
import { ToolError, type DirEntry, type ExecOptions, type ExecResult, type FileInfo } from '../tools/types';
import type { ToolDeps, ToolLimits, Workspace } from '../tools/types';

/** Symlinks followed by hand (dangling ones) before giving up, as the kernel's ELOOP limit. */
const MAX_SYMLINK_HOPS = 40;
/** After SIGTERM, the process group gets this long before SIGKILL. */
const KILL_GRACE_MS = 2000;
/** After the shell exits, how long to wait for pipes held open by processes it left running. */
const PIPE_DRAIN_MS = 250;
const SKIPPED_DIRECTORIES = new Set(['.git', 'node_modules']);
/** Environment variables withheld from commands the model runs (invariant 8: secrets stay out). */
const SECRET_ENV_NAME = /API_KEY|SECRET|PASSWORD|(^|_)TOKEN$/i;

/** Everything a tool may touch, for one tool call. */
export async function createToolDeps(options: {
  root: string;
  signal: AbortSignal;
  shellTimeoutMs?: number;
  maxOutputChars?: number;
}): Promise<ToolDeps> {
  const limits: ToolLimits = { shellTimeoutMs: options.shellTimeoutMs, maxOutputChars: options.maxOutputChars };
  return { workspace: await createWorkspace(options.root), exec: createExec(), signal: options.signal, limits };
}

/** The workspace rooted at the real path of `root`, which must be an existing directory. */
export async function createWorkspace(root: string): Promise<Workspace> {
  const realRoot = await fs.realpath(path.resolve(root));
  if (!(await fs.stat(realRoot)).isDirectory()) throw new Error(`Workspace root is not a directory: ${realRoot}`);
  const prefix = realRoot.endsWith(path.sep) ? realRoot : realRoot + path.sep;
  const isInside = (candidate: string) => candidate === realRoot || candidate.startsWith(prefix);
  return {
    root: realRoot,
    async resolve(input) {
      if (typeof input !== 'string' || input.trim() === '') {
        throw new ToolError('invalid_tool_params', 'A path must be a non-empty string.');
      }
      const resolved = await realpathOfNearest(path.resolve(realRoot, input), 0);
      if (!isInside(resolved)) {
        throw new ToolError(
          'path_outside_workspace',
          `Path "${input}" resolves to ${resolved}, outside the workspace ${realRoot}. Only paths inside the workspace can be used.`,
        );
      }
      return resolved;
    },
    relative: (absolute) => path.relative(realRoot, absolute).split(path.sep).join('/') || '.',
    readFile: (absolute) => fs.readFile(absolute),
    async writeFile(absolute, content) {
      await fs.mkdir(path.dirname(absolute), { recursive: true });
      await fs.writeFile(absolute, content, 'utf8');
    },
    stat: statOrUndefined,
    readdir: listEntries,
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
      if (hops >= MAX_SYMLINK_HOPS) throw new ToolError('execution_failed', `Too many levels of symbolic links: ${target}`);
      return realpathOfNearest(path.join(path.resolve(path.dirname(current), link), ...missing), hops + 1);
    }
    const parent = path.dirname(current);
    if (parent === current) return path.join(current, ...missing);
    missing.unshift(path.basename(current));
    current = parent;
  }
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

/** Entries of a directory; symlinks are described by their targets (broken ones as empty files). */
async function listEntries(absolute: string): Promise<DirEntry[]> {
  const names = await fs.readdir(absolute);
  return Promise.all(
    names.map(async (name) => {
      const info = await statOrUndefined(path.join(absolute, name)).catch(() => undefined);
      return { name, isDirectory: info?.isDirectory ?? false, size: info?.size ?? 0 };
    }),
  );
}

/**
 * Files under `dir` in name order, relative to it with `/` separators. Symlinked directories are
 * not followed; a symlinked file is listed only when its target is inside the workspace.
 */
async function walkFiles(dir: string, isInside: (p: string) => boolean, limit: number): Promise<string[]> {
  const files: string[] = [];
  const visit = async (relative: string): Promise<void> => {
    const entries = await fs.readdir(path.join(dir, relative), { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (files.length >= limit) return;
      const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.has(entry.name)) await visit(child);
      } else if (entry.isFile() || (entry.isSymbolicLink() && (await isFileInside(path.join(dir, child), isInside)))) {
        files.push(child);
      }
    }
  };
  await visit('');
  return files;
}

async function isFileInside(link: string, isInside: (p: string) => boolean): Promise<boolean> {
  try {
    const real = await fs.realpath(link);
    return isInside(real) && (await fs.stat(real)).isFile();
  } catch {
    return false;
  }
}

/** Runs commands with `bash -c`, each in its own process group so a timeout kills all of it. */
export function createExec(env: NodeJS.ProcessEnv = withoutSecrets(process.env)): ToolDeps['exec'] {
  return (options) => runCommand(options, env);
}

function withoutSecrets(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !SECRET_ENV_NAME.test(name)));
}

function runCommand(options: ExecOptions, env: NodeJS.ProcessEnv): Promise<ExecResult> {
  return new Promise((resolve, reject) => {
    const stdio: ['ignore', 'pipe', 'pipe'] = ['ignore', 'pipe', 'pipe'];
    const child = spawn('bash', ['-c', options.command], { cwd: options.cwd, env, detached: true, stdio });
    const output = createOutputBuffer(options.maxOutputChars);
    const result: ExecResult = { output: '', exitCode: null, signal: null, timedOut: false, aborted: false, pid: child.pid };
    const killGroup = groupKiller(child.pid);
    const timers: NodeJS.Timeout[] = [setTimeout(() => ((result.timedOut = true), killGroup()), options.timeoutMs)];
    const onAbort = () => ((result.aborted = true), killGroup());
    let done = false;
    const settle = (error?: Error) => {
      if (done) return;
      done = true;
      timers.forEach(clearTimeout);
      options.signal?.removeEventListener('abort', onAbort);
      child.stdout.destroy();
      child.stderr.destroy();
      if (error) reject(error);
      else resolve({ ...result, output: output.text() });
    };
    for (const stream of [child.stdout, child.stderr]) stream.setEncoding('utf8').on('data', output.append);
    child.on('error', settle);
    child.on('exit', (code, signal) => {
      Object.assign(result, { exitCode: code, signal });
      timers.push(setTimeout(() => settle(), PIPE_DRAIN_MS));
    });
    child.on('close', () => settle());
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** SIGTERM to the whole group, then SIGKILL after a grace period for whatever is left. */
function groupKiller(pid: number | undefined): () => void {
  let started = false;
  const send = (signal: NodeJS.Signals) => {
    try {
      if (pid !== undefined) process.kill(-pid, signal);
    } catch {
      // The group is already gone.
    }
  };
  return () => {
    if (started) return;
    started = true;
    send('SIGTERM');
    setTimeout(() => send('SIGKILL'), KILL_GRACE_MS).unref();
  };
}

/** Keeps the first 20% and a rolling last 80% of `maxChars`, counting what falls between. */
function createOutputBuffer(maxChars: number): { append: (chunk: string) => void; text: () => string } {
  const limited = Number.isFinite(maxChars);
  const sizes = limited ? headTailSizes(Math.max(0, maxChars)) : { head: Infinity, tail: Infinity };
  const { head: headMax, tail: tailMax } = sizes;
  const lastOf = (text: string, count = tailMax) => (count > 0 ? text.slice(-count) : '');
  /** Until the end, more than the tail is kept: output within `maxChars` must come back whole. */
  const buffered = Math.max(tailMax, maxChars);
  let head = '';
  let tail = '';
  let total = 0;
  return {
    append(chunk) {
      total += chunk.length;
      const room = headMax - head.length;
      if (room > 0) head += chunk.slice(0, room);
      const rest = room > 0 ? chunk.slice(room) : chunk;
      if (rest === '') return;
      tail += rest;
      if (tail.length > 2 * buffered) tail = lastOf(tail, buffered);
    },
    text() {
      if (!limited || total <= maxChars) return head + tail;
      const kept = lastOf(tail);
      return joinTruncated(head, kept, total - head.length - kept.length);
    },
  };
}
