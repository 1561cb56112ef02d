import type { ToolDeps } from './types';
import { READ_TOOL_OUTPUT_PAGE_CHARS, readToolOutputTool } from './read-tool-output';

const REF = `sha256:${'a'.repeat(64)}`;
const text = 'x'.repeat(READ_TOOL_OUTPUT_PAGE_CHARS + 500);

/** Only `readBlob` is used by this tool; the rest of `ToolDeps` is never touched. */
function deps(blobs: Record<string, string> | undefined): ToolDeps {
  const readBlob = async (ref: string) => blobs?.[ref];
  return { signal: new AbortController().signal, ...(blobs ? { readBlob } : {}) } as unknown as ToolDeps;
}

describe('read_tool_output', () => {
  it('returns a page of the stored output and says where to continue', async () => {
    const first = await readToolOutputTool.execute({ ref: REF }, deps({ [REF]: text }));
    expect(first).toEqual({
      ok: true,
      output: expect.stringContaining('[Characters 0–30,000 of 30,500. Continue with offset 30000.]'),
    });
    const rest = await readToolOutputTool.execute({ ref: REF, offset: 30_000 }, deps({ [REF]: text }));
    expect(rest).toEqual({
      ok: true,
      output: `[Characters 30,000–30,500 of 30,500: the end of the output.]\n${'x'.repeat(500)}`,
    });
  });

  it('accepts only store references and pages of at most 30,000 characters', () => {
    expect(readToolOutputTool.parameters.safeParse({ ref: '/etc/passwd' }).success).toBe(false);
    expect(readToolOutputTool.parameters.safeParse({ ref: REF, limit: READ_TOOL_OUTPUT_PAGE_CHARS + 1 }).success).toBe(
      false,
    );
  });

  it('reports an unknown reference, and a worker without store access, as tool errors', async () => {
    await expect(readToolOutputTool.execute({ ref: REF }, deps({}))).rejects.toMatchObject({ kind: 'file_not_found' });
    await expect(readToolOutputTool.execute({ ref: REF }, deps(undefined))).rejects.toMatchObject({
      kind: 'execution_failed',
    });
  });
});
