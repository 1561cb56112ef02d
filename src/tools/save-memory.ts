import { z } from 'zod';
import { ToolError, type ActivityTool } from './types';

const schema = z.object({
  fact: z
    .string()
    .refine((fact) => fact.trim() !== '', 'must not be empty')
    .describe('The fact to remember, one clear self-contained statement in plain language.'),
});

/**
 * Gemini CLI's `save_memory`: the fact goes under "Gemini Added Memories" in the user-level
 * `GEMINI.md` of durable-agent's home, which every later prompt loads. It writes a file, so it is an
 * edit for the policy (asks in default mode, runs in auto_edit and yolo, refused in plan mode).
 */
export const saveMemoryTool: ActivityTool<typeof schema> = {
  name: 'save_memory',
  kind: 'edit',
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
