import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Stats } from 'node:fs';

/** What a file's stat said when its bytes were hashed: size, mtime, inode, hash, and when it was hashed. */
type Entry = [size: number, mtimeMs: number, ino: number, hash: string, hashedAt: number];

/**
 * A file's modification time must be this far before the moment it was hashed for its entry to be trusted: a
 * write in the same clock tick as the hash would otherwise keep the stale hash (git's "racy" files). File system
 * clocks tick coarser than Date.now.
 */
const RACY_MARGIN_MS = 50;

/**
 * The host's memory of which file hashed to what, per workspace, so that an unchanged file costs one `lstat`: no
 * read, no hash. Kept in memory and in a JSON file under the agent's home (`<dir>/<digest of the root>.json`),
 * which a later process reads once. A lost or damaged file only costs hashing again.
 */
export class StatCache {
  private static readonly loaded = new Map<string, Map<string, Entry>>();
  private readonly entries: Map<string, Entry>;
  private readonly next = new Map<string, Entry>();
  private dirty = false;

  private constructor(
    private readonly file: string | undefined,
    entries: Map<string, Entry>,
  ) {
    this.entries = entries;
  }

  /** The cache of `root` kept under `dir`; without a `dir`, one that remembers nothing. */
  static open(dir: string | undefined, root: string): StatCache {
    if (!dir) return new StatCache(undefined, new Map());
    const digest = createHash('sha256').update(path.resolve(root)).digest('hex').slice(0, 32);
    const file = path.join(dir, `${digest}.json`);
    let entries = StatCache.loaded.get(file);
    if (!entries) {
      entries = readEntries(file);
      StatCache.loaded.set(file, entries);
    }
    return new StatCache(file, entries);
  }

  /** The hash of the file at `p` if its stat is the one remembered and it was not written as it was hashed. */
  hashOf(p: string, stat: Stats): string | undefined {
    const e = this.entries.get(p);
    if (!e || e[0] !== stat.size || e[1] !== stat.mtimeMs || e[2] !== stat.ino) return undefined;
    if (stat.mtimeMs >= e[4] - RACY_MARGIN_MS) return undefined;
    this.next.set(p, e);
    return e[3];
  }

  remember(p: string, stat: Stats, hash: string, hashedAt: number): void {
    this.next.set(p, [stat.size, stat.mtimeMs, stat.ino, hash, hashedAt]);
    this.dirty = true;
  }

  /** Keeps what this walk saw (files gone are forgotten) and writes it if anything was hashed or dropped. */
  save(): void {
    if (!this.file) return;
    if (!this.dirty && this.next.size === this.entries.size) return;
    this.entries.clear();
    for (const [p, e] of this.next) this.entries.set(p, e);
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
      const tmp = `${this.file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify(Object.fromEntries(this.entries)), { mode: 0o600 });
      fs.renameSync(tmp, this.file);
    } catch {
      // Only a cache: the next process hashes again.
    }
  }
}

function readEntries(file: string): Map<string, Entry> {
  try {
    const value = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, Entry>;
    return new Map(Object.entries(value).filter(([, e]) => Array.isArray(e) && e.length === 5));
  } catch {
    return new Map();
  }
}
