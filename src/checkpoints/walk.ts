import * as fs from 'node:fs';
import * as path from 'node:path';
import { compileGitIgnore } from '../tools/glob-match';

type Ignore = (relative: string, isDirectory: boolean) => boolean;

/** One `.gitignore` (or the settings' list), with the folder its patterns are relative to ('' for the root). */
export interface IgnoreLayer {
  base: string;
  test: Ignore;
}

export type WalkEntry =
  | { kind: 'file'; path: string; stat: fs.Stats }
  | { kind: 'link'; path: string; target: string }
  | { kind: 'dir'; path: string }
  | { kind: 'special'; path: string };

/**
 * Every path under `root` a checkpoint considers, sorted, folders before what they hold: `.git` folders, paths a
 * `.gitignore` (at any depth) or the `exclude` patterns name are left out, with what is under them. Symbolic
 * links are reported as links and never followed. Synchronous on purpose: a walk of an unchanged workspace is
 * one `lstat` per file, and the promise API would cost more than the calls themselves.
 */
export function walkWorkspace(root: string, exclude: string[]): WalkEntry[] {
  const out: WalkEntry[] = [];
  walkFolder(root, '', excludeLayers(exclude), out);
  return out;
}

/** The settings' list of excluded patterns as the first ignore layer (none when empty). */
export function excludeLayers(exclude: string[]): IgnoreLayer[] {
  return exclude.length > 0 ? [{ base: '', test: compileGitIgnore(exclude.join('\n')) }] : [];
}

function walkFolder(root: string, rel: string, layers: IgnoreLayer[], out: WalkEntry[]): void {
  const abs = rel === '' ? root : path.join(root, rel);
  const names = fs.readdirSync(abs, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  const own = names.some((d) => d.name === '.gitignore' && d.isFile()) ? gitIgnoreLayer(abs, rel) : undefined;
  const active = own ? [...layers, own] : layers;
  for (const dirent of names) {
    const p = rel === '' ? dirent.name : `${rel}/${dirent.name}`;
    if (dirent.name === '.git') continue;
    const isDir = dirent.isDirectory();
    if (ignored(active, p, isDir)) continue;
    if (isDir) {
      out.push({ kind: 'dir', path: p });
      walkFolder(root, p, active, out);
    } else if (dirent.isSymbolicLink()) {
      out.push({ kind: 'link', path: p, target: fs.readlinkSync(path.join(root, p)) });
    } else if (dirent.isFile()) {
      out.push({ kind: 'file', path: p, stat: fs.lstatSync(path.join(root, p)) });
    } else {
      out.push({ kind: 'special', path: p });
    }
  }
}

export function gitIgnoreLayer(abs: string, rel: string): IgnoreLayer | undefined {
  try {
    return { base: rel, test: compileGitIgnore(fs.readFileSync(path.join(abs, '.gitignore'), 'utf8')) };
  } catch {
    return undefined;
  }
}

/** Any layer that ignores the path ignores it (a deeper `!pattern` cannot re-include what a higher one left out). */
export function ignored(layers: IgnoreLayer[], p: string, isDir: boolean): boolean {
  for (const layer of layers) {
    const relative = layer.base === '' ? p : p.slice(layer.base.length + 1);
    if (layer.test(relative, isDir)) return true;
  }
  return false;
}
