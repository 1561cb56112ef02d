import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { compileGitIgnore } from '../tools/glob-match';

/** Gemini CLI's bound on the folder tree of the first request: files and folders together. */
export const FOLDER_TREE_MAX_ENTRIES = 200;

/** Folders never walked into (Gemini CLI's list): shown, marked as left out. */
const SKIPPED_FOLDERS = new Set(['node_modules', '.git', 'dist', '__pycache__']);

interface Folder {
  name: string;
  files: string[];
  folders: Folder[];
  /** Something in it is not shown: skipped, gitignored or past the bound. */
  cut: boolean;
}

/**
 * The workspace's folders and files, breadth first (a wide tree shows every top-level entry before
 * any deep one), at most `max` entries, without what the workspace root's `.gitignore` excludes.
 * Unreadable folders are shown empty; the tree never fails the request it goes into.
 */
export async function folderTree(root: string, max = FOLDER_TREE_MAX_ENTRIES): Promise<string> {
  const ignored = await rootGitIgnore(root);
  const top: Folder = { name: root, files: [], folders: [], cut: false };
  const queue: { folder: Folder; relative: string }[] = [{ folder: top, relative: '' }];
  let count = 0;
  for (let next = queue.shift(); next; next = queue.shift()) {
    const entries = await fs.readdir(path.join(root, next.relative), { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      const relative = next.relative ? `${next.relative}/${entry.name}` : entry.name;
      const isFolder = entry.isDirectory();
      if (!isFolder && !entry.isFile()) continue;
      if (ignored?.(relative, isFolder)) continue;
      if (count >= max) {
        next.folder.cut = true;
        break;
      }
      count += 1;
      if (!isFolder) next.folder.files.push(entry.name);
      else {
        const folder: Folder = { name: entry.name, files: [], folders: [], cut: SKIPPED_FOLDERS.has(entry.name) };
        next.folder.folders.push(folder);
        if (!folder.cut) queue.push({ folder, relative });
      }
    }
  }
  const lines = [`${root}${path.sep}`, ...render(top, '  ')];
  const header =
    `Folder tree (breadth first, at most ${max} files and folders, .gitignore respected; ` +
    '"..." marks a folder with more than is shown):';
  return `${header}\n${lines.join('\n')}`;
}

function render(folder: Folder, indent: string): string[] {
  const lines = folder.files.map((file) => `${indent}${file}`);
  for (const sub of folder.folders) {
    lines.push(`${indent}${sub.name}/${sub.cut && sub.files.length + sub.folders.length === 0 ? ' ...' : ''}`);
    lines.push(...render(sub, `${indent}  `));
  }
  if (folder.cut && folder.files.length + folder.folders.length > 0) lines.push(`${indent}...`);
  return lines;
}

async function rootGitIgnore(root: string): Promise<((relative: string, isFolder: boolean) => boolean) | undefined> {
  const text = await fs.readFile(path.join(root, '.gitignore'), 'utf8').catch(() => undefined);
  return text === undefined ? undefined : compileGitIgnore(text);
}
