import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/** Gemini CLI's limit on nested `@path` imports in context files. */
export const MAX_IMPORT_DEPTH = 5;

/** `@` at the start of a line or after white space, then a relative path with a file extension. */
const IMPORT = /(^|\s)@((?:\.{1,2}\/)?[\w\-./]*[\w-]\.\w+)/g;
/** Fenced blocks and inline code: an `@` inside them is text, not an import. */
const CODE = /```[\s\S]*?(?:```|$)|`[^`\n]*`/g;

/** What an expansion shares: the directory imports must stay in, files already imported, notes. */
interface ImportScope {
  root: string;
  seen: Set<string>;
  warnings: string[];
}

/**
 * The text of a context file with its `@path` imports replaced by the files they name, as Gemini CLI
 * expands them: relative to the importing file, nested up to `MAX_IMPORT_DEPTH`, each file once
 * (which also ends cycles). A path that leaves `root` (symlinks resolved), is absolute or cannot be
 * read is not imported: a comment says why in the text, and a warning names it.
 */
export async function expandImports(text: string, file: string, root: string, warnings: string[]): Promise<string> {
  return expand(text, file, 0, { root, seen: new Set([file]), warnings });
}

async function expand(text: string, file: string, depth: number, scope: ImportScope): Promise<string> {
  if (depth >= MAX_IMPORT_DEPTH) return text;
  let out = '';
  let at = 0;
  for (const code of [...text.matchAll(CODE), undefined]) {
    const end = code ? code.index : text.length;
    out += await expandProse(text.slice(at, end), file, depth, scope);
    if (code) out += code[0];
    at = code ? code.index + code[0].length : text.length;
  }
  return out;
}

async function expandProse(prose: string, file: string, depth: number, scope: ImportScope): Promise<string> {
  let out = '';
  let at = 0;
  for (const match of prose.matchAll(IMPORT)) {
    const start = match.index + match[1].length;
    out += prose.slice(at, start) + (await importOne(match[2], file, depth, scope));
    at = start + 1 + match[2].length;
  }
  return out + prose.slice(at);
}

async function importOne(spec: string, file: string, depth: number, scope: ImportScope): Promise<string> {
  const failed = (why: string) => {
    scope.warnings.push(`${file}: import @${spec} skipped: ${why}`);
    return `<!-- Import failed: ${spec} - ${why} -->`;
  };
  let target: string;
  try {
    target = await fs.realpath(path.resolve(path.dirname(file), spec));
  } catch {
    return failed('file not found');
  }
  const inside = path.relative(scope.root, target);
  if (inside.startsWith('..') || path.isAbsolute(inside)) return failed(`outside ${scope.root}`);
  if (scope.seen.has(target)) return `<!-- File already imported: ${spec} -->`;
  scope.seen.add(target);
  let content: string;
  try {
    content = await fs.readFile(target, 'utf8');
  } catch (err) {
    return failed((err as NodeJS.ErrnoException).code ?? 'cannot be read');
  }
  const expanded = await expand(content, target, depth + 1, scope);
  return `<!-- Imported from: ${spec} -->\n${expanded}\n<!-- End of import from: ${spec} -->`;
}
