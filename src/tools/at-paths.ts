import { compileGlob, hasGlobMagic } from './glob-match';
import { joinPath, loadGitIgnore } from './tool-helpers';
import { readFileTool } from './read-file';
import { ToolError, type ToolDeps } from './types';

/**
 * Gemini CLI's `@path` references in a prompt: each names a file, a folder (all files under it) or a
 * glob, relative to the workspace; their text goes with the prompt to the model. Parsing is pure (the
 * workflow and the CLI use it); reading takes the tools' dependencies, so it runs in an activity.
 */

/** Files one prompt may pull in, and characters of their text together; past these the rest is named, not read. */
export const MAX_REFERENCED_FILES = 200;
export const MAX_REFERENCED_CHARS = 1_000_000;
/** Files walked to expand one folder or glob. */
const MAX_FILES_WALKED = 50_000;

/** Characters that end a reference when they close it (`see @a.ts.` or `(@b.md)`). */
const TRAILING_PUNCTUATION = /[.,;:!?)\]}'"]+$/;

/**
 * The paths referenced in `prompt`: an `@` at the start, or after whitespace or an opening bracket or quote, then
 * the path up to the next
 * unescaped whitespace (`\ ` keeps a space). A lone `@`, or one inside a word (`me@example.com`), is text.
 */
export function parseAtPaths(prompt: string): string[] {
  const paths: string[] = [];
  const pattern = /(^|[\s([{"'])@((?:\\\s|[^\s])+)/g;
  for (const match of prompt.matchAll(pattern)) {
    const path = match[2].replace(/\\(\s)/g, '$1').replace(TRAILING_PUNCTUATION, '');
    if (path !== '' && !paths.includes(path)) paths.push(path);
  }
  return paths;
}

export interface ReferencedFiles {
  /** The text added to the prompt: every file's content under its path. */
  text: string;
  /** Workspace-relative paths read, in order. */
  files: string[];
  /** Files left out, each with why (git-ignored, binary, past the caps). */
  skipped: string[];
}

/**
 * Reads what `paths` name, confined to the workspace (a path outside it is a `ToolError`). A path that
 * names nothing, or a glob that matches nothing, is skipped with the reason, and the prompt goes on
 * with its text as written, as Gemini CLI does.
 */
export async function readReferencedFiles(paths: readonly string[], deps: ToolDeps): Promise<ReferencedFiles> {
  const ignored = await loadGitIgnore(deps);
  const result: ReferencedFiles = { text: '', files: [], skipped: [] };
  const chunks: string[] = [];
  let chars = 0;
  for (const reference of paths) {
    const named = await filesOf(reference, deps);
    if (!Array.isArray(named)) {
      result.skipped.push(`@${reference} (${named.missing})`);
      continue;
    }
    for (const file of named) {
      if (result.files.includes(file) || result.skipped.some((s) => s.startsWith(`${file} `))) continue;
      if (ignored?.(file, false)) {
        result.skipped.push(`${file} (ignored by .gitignore)`);
      } else if (result.files.length >= MAX_REFERENCED_FILES || chars >= MAX_REFERENCED_CHARS) {
        result.skipped.push(
          `${file} (over the limit of ${MAX_REFERENCED_FILES} files or ${MAX_REFERENCED_CHARS} chars)`,
        );
      } else {
        const body = await readOne(file, deps);
        if (typeof body !== 'string') result.skipped.push(`${file} (${body.reason})`);
        else {
          result.files.push(file);
          chunks.push(`File @${file}:\n${body}`);
          chars += body.length;
        }
      }
    }
  }
  result.text =
    chunks.length === 0
      ? ''
      : ['--- Files referenced in the prompt ---', ...chunks, '--- End of files ---'].join('\n\n');
  return result;
}

/** The workspace-relative files one reference names, or why it names none. */
async function filesOf(reference: string, deps: ToolDeps): Promise<string[] | { missing: string }> {
  const { workspace } = deps;
  if (hasGlobMagic(reference)) {
    const test = compileGlob(reference.replace(/^(\.\/)+/, ''));
    const matches = (await workspace.walk(workspace.root, { limit: MAX_FILES_WALKED })).filter(test);
    if (matches.length === 0) return { missing: 'matches no file in the workspace' };
    return matches;
  }
  const absolute = await workspace.resolve(reference);
  const info = await workspace.stat(absolute);
  if (!info) return { missing: 'does not exist in the workspace' };
  if (info.isFile) return [workspace.relative(absolute)];
  const inside = await workspace.walk(absolute, { limit: MAX_FILES_WALKED });
  if (inside.length === 0) return { missing: 'is a folder with no files' };
  return inside.map((file) => workspace.relative(joinPath(absolute, file)));
}

/** The file's text by `read_file`'s rules (its line and size limits, binary files refused). */
async function readOne(file: string, deps: ToolDeps): Promise<string | { reason: string }> {
  try {
    const read = await readFileTool.execute({ file_path: file }, deps);
    if (!read.ok) return { reason: read.error.message };
    return read.output;
  } catch (err) {
    if (err instanceof ToolError) return { reason: err.message };
    throw err;
  }
}
