import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { factProblem } from '../../tools/save-memory';
import { DEFAULT_CONTEXT_FILE } from './discover';

/** Gemini CLI's heading for facts `save_memory` adds to the user-level context file. */
export const MEMORY_HEADING = '## Gemini Added Memories';

/**
 * Adds `fact` as a list item at the end of the `MEMORY_HEADING` section of `<home>/GEMINI.md`,
 * creating the file or the section when missing, as Gemini CLI's memory tool does. A leading list
 * marker in the fact is dropped, so a fact never becomes `- - fact`. Returns the file written. A
 * fact that is not one line of plain text (see `factProblem`) is refused here too.
 */
export async function saveMemoryFact(home: string, fact: string): Promise<string> {
  const problem = factProblem(fact);
  if (problem) throw new Error(`The fact ${problem}.`);
  const file = path.join(home, DEFAULT_CONTEXT_FILE);
  const item = `- ${fact
    .trim()
    .replace(/^(-+\s*)+/, '')
    .trim()}`;
  const before = await fs.readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return '';
    throw err;
  });
  await fs.mkdir(home, { recursive: true });
  await fs.writeFile(file, withFact(before, item));
  return file;
}

function withFact(content: string, item: string): string {
  const start = content.indexOf(MEMORY_HEADING);
  if (start === -1) {
    const separator = content === '' ? '' : content.endsWith('\n\n') ? '' : content.endsWith('\n') ? '\n' : '\n\n';
    return `${content}${separator}${MEMORY_HEADING}\n${item}\n`;
  }
  const after = start + MEMORY_HEADING.length;
  const next = content.indexOf('\n## ', after);
  const end = next === -1 ? content.length : next + 1;
  const section = content.slice(start, end).replace(/\s*$/, '');
  return `${content.slice(0, start)}${section}\n${item}\n${next === -1 ? '' : '\n'}${content.slice(end)}`;
}
