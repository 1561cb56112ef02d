import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Stats } from 'node:fs';

/** Where a host keeps its stat caches, under the agent's home: the worker's checkpoints and a rewind share them. */
export function statCacheDir(home: string): string {
  return path.join(home, 'checkpoints', 'stat-cache');
}

/**
 * What a file's stat said when its bytes were hashed: size, mtime, ctime, inode, hash, and when it was hashed.
 * The ctime and inode catch what size and mtime miss: a file rewritten with its old mtime put back (the ctime
 * moves, and cannot be set), or another file renamed over it.
 */
export type Entry = [size: number, mtimeMs: number, ctimeMs: number, ino: number, hash: string, hashedAt: number];

/**
 * A file's modification time must be this far before the moment it was hashed for its entry to be trusted: a
 * write in the same clock tick as the hash would otherwise keep the stale hash (git's "racy" files; as git, the
 * change time is compared, not checked for raciness, since a `touch` moves it). File system clocks tick coarser
 * than Date.now.
 */
export const RACY_MARGIN_MS = 50;

/** Whether `e` still tells the hash of the file `stat` describes. */
export function entryHolds(e: Entry, stat: Stats): boolean {
  if (e[0] !== stat.size || e[1] !== stat.mtimeMs || e[2] !== stat.ctimeMs || e[3] !== stat.ino) return false;
  return stat.mtimeMs < e[5] - RACY_MARGIN_MS;
}

export function entryOf(stat: Stats, hash: string, hashedAt: number): Entry {
  return [stat.size, stat.mtimeMs, stat.ctimeMs, stat.ino, hash, hashedAt];
}

interface State {
  entries: Map<string, Entry>;
  logged: number;
}

/**
 * The host's memory of which file hashed to what, per workspace, so that an unchanged file costs one `lstat`: no
 * read, no hash. Kept in memory and on disk under the agent's home: `<dir>/<digest of the root>.json` holds all
 * entries, and `.log` beside it the lines changed since, appended, so that a checkpoint after one changed file
 * writes one line, not the whole cache; the file is rewritten whole once the log has grown to half its size. A
 * later process reads both once. A lost or damaged file only costs hashing again.
 */
export class StatCache {
  private static readonly loaded = new Map<string, State>();
  private readonly lines: string[] = [];

  private constructor(
    private readonly file: string | undefined,
    private readonly state: State,
  ) {}

  /** The cache of `root` kept under `dir`; without a `dir`, one that remembers nothing. */
  static open(dir: string | undefined, root: string): StatCache {
    if (!dir) return new StatCache(undefined, { entries: new Map(), logged: 0 });
    const digest = createHash('sha256').update(path.resolve(root)).digest('hex').slice(0, 32);
    const file = path.join(dir, `${digest}.json`);
    let state = StatCache.loaded.get(file);
    if (!state) {
      state = readEntries(file);
      StatCache.loaded.set(file, state);
    }
    return new StatCache(file, state);
  }

  /** The entry of the file at `p` if it still holds for `stat`. */
  known(p: string, stat: Stats): Entry | undefined {
    const e = this.state.entries.get(p);
    return e && entryHolds(e, stat) ? e : undefined;
  }

  hashOf(p: string, stat: Stats): string | undefined {
    return this.known(p, stat)?.[4];
  }

  remember(p: string, e: Entry): void {
    this.state.entries.set(p, e);
    this.lines.push(JSON.stringify([p, ...e]));
  }

  forget(p: string): void {
    if (this.state.entries.delete(p)) this.lines.push(JSON.stringify([p]));
  }

  /** Forgets every file but those in `seen` (after a walk of the whole workspace). */
  keepOnly(seen: Set<string>): void {
    for (const p of this.state.entries.keys()) if (!seen.has(p)) this.forget(p);
  }

  /** Writes what changed since the last save, if anything did. */
  save(): void {
    const { lines, state } = this;
    if (!this.file || lines.length === 0) return;
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
      if (state.logged + lines.length > state.entries.size / 2 + 64) this.rewrite(this.file);
      else {
        fs.appendFileSync(`${this.file.slice(0, -'.json'.length)}.log`, `${lines.join('\n')}\n`, { mode: 0o600 });
        state.logged += lines.length;
      }
    } catch {
      // Only a cache: the next process hashes again.
    }
    lines.length = 0;
  }

  private rewrite(file: string): void {
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(Object.fromEntries(this.state.entries)), { mode: 0o600 });
    fs.renameSync(tmp, file);
    fs.rmSync(`${file.slice(0, -'.json'.length)}.log`, { force: true });
    this.state.logged = 0;
  }
}

const ENTRY_LENGTH = 6;

function readEntries(file: string): State {
  let entries = new Map<string, Entry>();
  try {
    const value = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, Entry>;
    entries = new Map(Object.entries(value).filter(([, e]) => Array.isArray(e) && e.length === ENTRY_LENGTH));
  } catch {
    // None yet (a small cache may live in its log alone until the first rewrite), or damaged: hashed again.
  }
  let logged = 0;
  try {
    for (const line of fs.readFileSync(`${file.slice(0, -'.json'.length)}.log`, 'utf8').split('\n')) {
      if (line === '') continue;
      logged += 1;
      const [p, ...e] = JSON.parse(line) as [string, ...Entry];
      if (e.length === ENTRY_LENGTH) entries.set(p, e as unknown as Entry);
      else entries.delete(p);
    }
  } catch {
    // No log, or a line cut short by a crash: the entries read so far stand; the rest is hashed again.
  }
  return { entries, logged };
}
