import * as fs from 'node:fs';
import type { Stats } from 'node:fs';
import type { SkipReason } from './manifest';
import { type Entry, entryHolds, entryOf, RACY_MARGIN_MS, type StatCache } from './stat-cache';
import { gitIgnoreLayer, type IgnoreLayer, ignored } from './walk';

type Kind = 'file' | 'link' | 'dir' | 'special';

/** A name a folder holds, as its listing gave it (ignored names left out). */
interface Listed {
  name: string;
  kind: Kind;
  abs: string;
}

/** What one name of a folder was at a checkpoint: a file taken (by its stat cache entry), skipped, a link, a folder. */
export type Seen =
  | { kind: 'file'; entry: Entry; mode: number }
  | { kind: 'skip'; reason: SkipReason; size?: number }
  | { kind: 'link'; ino: number; ctimeMs: number; target: string }
  | { kind: 'dir'; folder: Folder };

/** A folder's modification and change times and inode: any entry made, removed or renamed in it moves them. */
type Sig = [mtimeMs: number, ctimeMs: number, ino: number];

/**
 * One folder as a checkpoint saw it. Kept in memory by the process for its next checkpoint of the workspace: a
 * folder whose sig is unchanged (and was listed after its last change) holds the same names, so its `readdir`
 * and ignore matching are skipped (git's untracked cache); a folder whose names all still stat the same keeps its
 * stored tree without serialising it again.
 */
export interface Folder {
  rel: string;
  sig: Sig;
  listedAt: number;
  /** The ignore layers for what it holds, its own `.gitignore` included, and that file's sig. */
  layers: IgnoreLayer[];
  gitignore?: Sig;
  names: Listed[];
  /** Aligned with `names`. */
  seen: Seen[];
  /** Its tree's reference, and its own files' skip records, once stored. */
  tree: string;
  skipped: { path: string; reason: SkipReason; size?: number }[];
}

/** A walk of a workspace, knowing the folders of the last one (`old`) and making the next memory (`next`). */
export interface Walk {
  cache: StatCache;
  old: Map<string, Folder> | undefined;
  /** Every folder walked, folders before what they hold. */
  order: Folder[];
  fileCap: number;
  totalCap: number;
  bytes: number;
  files: number;
  /** Every file path taken, when there is no `old` to tell what went away. */
  seenPaths?: Set<string>;
  /** Starts reading and storing a file that is not known by its stat; waits when too many are being read. */
  read: (folder: Folder, index: number, rel: string) => Promise<void>;
}

const sigOf = (s: Stats): Sig => [s.mtimeMs, s.ctimeMs, s.ino];
const sameSig = (a: Sig | undefined, s: Stats | undefined) =>
  a !== undefined && s !== undefined && a[0] === s.mtimeMs && a[1] === s.ctimeMs && a[2] === s.ino;
const lstat = (p: string) => fs.lstatSync(p, { throwIfNoEntry: false });
const relOf = (folder: Folder, name: string) => (folder.rel === '' ? name : `${folder.rel}/${name}`);

function kindOf(s: Stats): Kind {
  return s.isFile() ? 'file' : s.isDirectory() ? 'dir' : s.isSymbolicLink() ? 'link' : 'special';
}

/**
 * Walks the folder `rel` (at `abs`, whose lstat is `stat`) and what it holds, in path order. `trusted`: the
 * ignore layers above are those of the last walk, so this folder's remembered listing may stand.
 */
export async function walkFolder(w: Walk, at: At, trusted: boolean): Promise<Folder> {
  const old = w.old?.get(at.rel);
  const { folder, stats } = listing(old, at, trusted);
  const before = folder.names === old?.names ? old.seen : byName(w, old, folder);
  // What it holds was filtered by the same ignore layers as last time only if its `.gitignore` is unchanged.
  const below = trusted && old !== undefined && sameSigs(old.gitignore, folder.gitignore);
  w.order.push(folder);
  for (let i = 0; i < folder.names.length; i++) {
    const [s, l] = [stats[i], folder.names[i]];
    if (!s || kindOf(s) !== l.kind) {
      // Gone or changed kind between the listing and its lstat: left alone, as a file that cannot be read.
      folder.seen.push({ kind: 'skip', reason: 'unreadable' });
    } else if (l.kind === 'dir') {
      const child = { rel: relOf(folder, l.name), abs: l.abs, stat: s, layers: folder.layers };
      folder.seen.push({ kind: 'dir', folder: await walkFolder(w, child, below) });
    } else if (l.kind === 'file') {
      const seen = seeFile(w, folder, l.name, s, before[i]);
      folder.seen.push(seen);
      if (seen.kind === 'file' && !seen.entry[4]) await w.read(folder, i, relOf(folder, l.name));
    } else if (l.kind === 'link') folder.seen.push(seeLink(l, s, before[i]));
    else folder.seen.push({ kind: 'skip', reason: 'special' });
  }
  return folder;
}

/** Where a folder is and the ignore layers above it. */
export interface At {
  rel: string;
  abs: string;
  stat: Stats;
  layers: IgnoreLayer[];
}

/** The remembered listing while it holds, else the folder read again; and the lstat of each of its names. */
function listing(old: Folder | undefined, at: At, trusted: boolean) {
  if (trusted && old && listingHolds(old, at)) {
    const stats = old.names.map((l) => lstat(l.abs));
    // A listing that no longer matches the kinds on disk is read again.
    if (stats.every((s, i) => s && kindOf(s) === old.names[i].kind)) return { folder: renewed(old), stats };
  }
  const folder = list(at);
  return { folder, stats: folder.names.map((l) => lstat(l.abs)) };
}

function renewed(old: Folder): Folder {
  return { ...old, seen: [], tree: '', skipped: [] };
}

function sameSigs(a: Sig | undefined, b: Sig | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a[0] === b[0] && a[1] === b[1] && a[2] === b[2]);
}

function listingHolds(old: Folder, { abs, stat }: At): boolean {
  if (!sameSig(old.sig, stat) || stat.mtimeMs >= old.listedAt - RACY_MARGIN_MS) return false;
  return old.gitignore === undefined || sameSig(old.gitignore, lstat(`${abs}/.gitignore`));
}

/** Reads the folder's names, sorted, without `.git` and what its ignore layers leave out. */
function list({ rel, abs, stat, layers: above }: At): Folder {
  const listedAt = Date.now();
  const dirents = fs.readdirSync(abs, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  const hasIgnore = dirents.some((d) => d.name === '.gitignore' && d.isFile());
  const own = hasIgnore ? gitIgnoreLayer(abs, rel) : undefined;
  const gitignore = own && lstat(`${abs}/.gitignore`);
  const layers = own ? [...above, own] : above;
  const names: Listed[] = [];
  for (const d of dirents) {
    if (d.name === '.git') continue;
    const isDir = d.isDirectory();
    if (ignored(layers, rel === '' ? d.name : `${rel}/${d.name}`, isDir)) continue;
    const kind: Kind = isDir ? 'dir' : d.isSymbolicLink() ? 'link' : d.isFile() ? 'file' : 'special';
    names.push({ name: d.name, kind, abs: `${abs}/${d.name}` });
  }
  const folder: Folder = { rel, sig: sigOf(stat), listedAt, layers, names, seen: [], tree: '', skipped: [] };
  // A `.gitignore` written as it was read is never trusted: the folder is read again next time.
  if (gitignore) folder.gitignore = gitignore.mtimeMs < listedAt - RACY_MARGIN_MS ? sigOf(gitignore) : [-1, -1, -1];
  return folder;
}

/**
 * What the last walk saw under each of the new listing's names; what it saw under names now gone (or gone from
 * files to folders) is forgotten by the stat cache.
 */
function byName(w: Walk, old: Folder | undefined, folder: Folder): (Seen | undefined)[] {
  if (!old) return [];
  const now = new Map(folder.names.map((l, i) => [l.name, i]));
  const before: (Seen | undefined)[] = [];
  old.names.forEach((l, i) => {
    const at = now.get(l.name);
    const seen = old.seen[i];
    if (at !== undefined && folder.names[at].kind === l.kind) before[at] = seen;
    else forget(w.cache, old, l.name, seen);
  });
  return before;
}

function forget(cache: StatCache, folder: Folder, name: string, seen: Seen): void {
  if (seen.kind === 'file') cache.forget(relOf(folder, name));
  else if (seen.kind === 'dir')
    seen.folder.names.forEach((l, i) => forget(cache, seen.folder, l.name, seen.folder.seen[i]));
}

/** A file by its stat when the last walk or the stat cache knows it, else an entry to fill by reading it. */
function seeFile(w: Walk, folder: Folder, name: string, stat: Stats, before: Seen | undefined): Seen {
  const { size } = stat;
  const reason = size > w.fileCap ? 'file-cap' : w.bytes + size > w.totalCap ? 'checkpoint-cap' : undefined;
  if (reason)
    return before?.kind === 'skip' && before.reason === reason && before.size === size
      ? before
      : { kind: 'skip', reason, size };
  w.bytes += size;
  w.files += 1;
  const mode = stat.mode & 0o7777;
  if (before?.kind === 'file' && entryHolds(before.entry, stat)) {
    return before.mode === mode ? before : { kind: 'file', entry: before.entry, mode };
  }
  const rel = relOf(folder, name);
  w.seenPaths?.add(rel);
  const known = w.cache.known(rel, stat);
  return { kind: 'file', entry: known ?? entryOf(stat, '', 0), mode };
}

function seeLink(l: Listed, stat: Stats, before: Seen | undefined): Seen {
  if (before?.kind === 'link' && before.ino === stat.ino && before.ctimeMs === stat.ctimeMs) return before;
  return { kind: 'link', ino: stat.ino, ctimeMs: stat.ctimeMs, target: fs.readlinkSync(l.abs) };
}
