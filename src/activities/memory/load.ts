import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { discoverMemoryFiles, type MemorySources } from './discover';
import { expandImports } from './imports';

export { DEFAULT_CONTEXT_FILE, type MemorySources } from './discover';

/** The project context as sent to the model, and where it came from. */
export interface LoadedMemory {
  /** Each file between Gemini CLI's `--- Context from: ... ---` markers; empty when there is none. */
  text: string;
  /**
   * The files read, in order, as a person reads them: relative to the workspace, except the user-level
   * file, which is `~/…` under the user's home directory and absolute elsewhere.
   */
  files: string[];
  /** Files or imports that were skipped, and why. */
  warnings: string[];
}

/**
 * Reads the hierarchical memory of a workspace (see discover.ts for the order), imports expanded.
 * Shared by the prompt's `loadMemory` activity and `durable-agent memory show`, so what the command
 * prints is what a prompt sends. A file that is empty after trimming is left out, as Gemini CLI does.
 */
export async function loadMemory(sources: MemorySources): Promise<LoadedMemory> {
  const { files, root, skipped } = await discoverMemoryFiles(sources);
  const workspace = await fs.realpath(sources.workspace);
  const blocks: string[] = [];
  const shown: string[] = [];
  const warnings: string[] = [...skipped];
  const home = sources.home ? await fs.realpath(sources.home).catch(() => undefined) : undefined;
  for (const file of files) {
    let content: string;
    try {
      content = await fs.readFile(file, 'utf8');
    } catch (err) {
      warnings.push(`${file}: cannot be read: ${(err as Error).message}`);
      continue;
    }
    if (content.trim() === '') continue;
    // The user-level file imports from the home; the others from the project root. The marker names
    // each file relative to the workspace, as Gemini CLI's does, so the model reads the same text.
    const scope = home && path.dirname(file) === home ? home : root;
    const expanded = (await expandImports(content, file, scope, warnings)).trim();
    const name = path.relative(workspace, file) || path.basename(file);
    shown.push(scope === home && home ? await shownUserFile(file) : name);
    blocks.push(`--- Context from: ${name} ---\n${expanded}\n--- End of Context from: ${name} ---`);
  }
  return { text: blocks.join('\n\n'), files: shown, warnings };
}

/** `~/.durable-agent/GEMINI.md` rather than `../../home/me/.durable-agent/GEMINI.md`. */
async function shownUserFile(file: string): Promise<string> {
  const userHome = await fs.realpath(os.homedir()).catch(() => os.homedir());
  const inHome = path.relative(userHome, file);
  if (inHome.startsWith('..') || path.isAbsolute(inHome)) return file;
  return `~/${inHome.split(path.sep).join('/')}`;
}
