import { callTool, errorOf, makeWorkspace, outputOf, removeWorkspaces } from '../../test/helpers/tool-harness';

afterAll(removeWorkspaces);

describe('save_memory', () => {
  it('hands the trimmed fact to the user-level memory file', async () => {
    const { deps } = await makeWorkspace();
    const saved: string[] = [];
    const userMemory = { addFact: async (fact: string) => (saved.push(fact), '/home/GEMINI.md') };
    const output = outputOf(await callTool('save_memory', { fact: '  likes tabs ' }, { ...deps, userMemory }));
    expect(output).toBe('Remembered: "likes tabs"');
    expect(saved).toEqual(['likes tabs']);
  });

  it('is an error result on a worker without a home', async () => {
    const { deps } = await makeWorkspace();
    const error = errorOf(await callTool('save_memory', { fact: 'x' }, deps));
    expect(error.message).toMatch(/no home directory/);
  });
});
