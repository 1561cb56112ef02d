import { z } from 'zod';
import { ToolError, type ActivityTool, type ToolDeps } from './types';

/**
 * Characters returned per call. Below the 40,000-character limit run_tool applies to every tool
 * result, so a page is never cut again on its way to the model.
 */
export const READ_TOOL_OUTPUT_PAGE_CHARS = 30_000;

const schema = z.object({
  ref: z
    .string()
    .regex(/^sha256:[0-9a-f]{64}$/, 'must be a reference of the form sha256:<64 hex digits>')
    .describe('The reference named in a shortened or masked tool output (sha256:...).'),
  offset: z.number().int().min(0).optional().describe('Optional: first character to return (0-based). Defaults to 0.'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(READ_TOOL_OUTPUT_PAGE_CHARS)
    .optional()
    .describe(`Optional: number of characters to return, at most ${READ_TOOL_OUTPUT_PAGE_CHARS}.`),
});

/**
 * Reads back the full text of a tool output that was shortened (compression) or masked (tool output
 * masking) to save context. The text lives in the transcript store, addressed by its hash, so it is
 * read-only and the same on every worker.
 */
export const readToolOutputTool: ActivityTool<typeof schema> = {
  name: 'read_tool_output',
  kind: 'read',
  reach: 'transcript',
  description:
    'Returns part of a tool output that was shortened or masked earlier in the conversation to save ' +
    `context. Pass the reference the shortened output names (sha256:...), and page through long outputs ` +
    `with offset and limit (characters, at most ${READ_TOOL_OUTPUT_PAGE_CHARS} per call).`,
  parameters: schema,
  async execute(args, deps) {
    const text = await readStored(args.ref, deps);
    const start = Math.min(args.offset ?? 0, text.length);
    const end = Math.min(start + (args.limit ?? READ_TOOL_OUTPUT_PAGE_CHARS), text.length);
    const n = (value: number) => value.toLocaleString('en-US');
    const header =
      end < text.length
        ? `[Characters ${n(start)}–${n(end)} of ${n(text.length)}. Continue with offset ${end}.]`
        : `[Characters ${n(start)}–${n(end)} of ${n(text.length)}: the end of the output.]`;
    return { ok: true, output: `${header}\n${text.slice(start, end)}` };
  },
};

async function readStored(ref: string, deps: ToolDeps): Promise<string> {
  const { readBlob } = deps;
  if (!readBlob)
    throw new ToolError(
      'execution_failed',
      'Stored tool outputs cannot be read here: this worker gives tools no store access.',
    );
  // A missing blob is the model's mistake (a mistyped reference); a store failure is infrastructure.
  const text = await readBlob(ref);
  if (text !== undefined) return text;
  throw new ToolError(
    'file_not_found',
    `No stored tool output ${ref}. Use the reference exactly as a shortened output names it.`,
  );
}
