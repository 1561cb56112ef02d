import { z } from 'zod';
import { ToolError, type ActivityTool } from './types';

/** `@` then a path with an extension, where a context file would import it (see memory/imports.ts). */
const IMPORT_LIKE = /(^|\s)@[\w\-./]*[\w-]\.\w/;

/**
 * Why `fact` cannot be saved, or undefined. The fact lands in a file every later prompt loads into
 * its system instruction, so it must stay one list item of plain text: a line break could start a
 * `##` section or any other text, and an `@file.ext` would import that file (settings, say).
 */
export function factProblem(fact: string): string | undefined {
  if (fact.trim() === '') return 'must not be empty';
  if (/[\r\n\u2028\u2029]/.test(fact)) return 'must be one line of text, without line breaks';
  if (IMPORT_LIKE.test(fact)) return 'must not contain an @path import; name the file without the @';
  return undefined;
}

const schema = z.object({
  fact: z
    .string()
    .superRefine((fact, ctx) => {
      const problem = factProblem(fact);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .describe('The fact to remember: one line, one clear self-contained statement in plain language.'),
});

/**
 * Gemini CLI's `save_memory`: the fact goes under "Gemini Added Memories" in the user-level
 * `GEMINI.md` of durable-agent's home, which every later prompt loads. Asks in default and auto_edit
 * mode (what it writes reaches every later prompt, so auto_edit's "edits in the workspace" does not
 * cover it), runs in yolo, refused in plan mode.
 */
export const saveMemoryTool: ActivityTool<typeof schema> = {
  name: 'save_memory',
  kind: 'edit',
  reach: 'user-memory',
  description:
    "Remembers a fact about the user or their preferences across sessions by adding it to the user's " +
    'GEMINI.md. Use it when the user asks you to remember something, or states a lasting preference. ' +
    'Not for project details that belong in the project, nor for the progress of the current task.',
  parameters: schema,
  async execute(args, deps) {
    if (!deps.userMemory) {
      throw new ToolError('execution_failed', 'This worker has no home directory for the user-level GEMINI.md.');
    }
    const fact = args.fact.trim();
    await deps.userMemory.addFact(fact);
    return { ok: true, output: `Remembered: "${fact}"`, display: 'Saved to memory' };
  },
};
