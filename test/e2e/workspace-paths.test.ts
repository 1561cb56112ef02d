/**
 * Paths the file system cannot take (a NUL byte, a 300-character name) are the model's mistake:
 * every tool that takes a path answers them with an invalid-argument error result, and the prompt
 * goes on to its end instead of failing.
 */
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, type Harness } from '../helpers/agent-harness';

type Part = { functionResponse: { id: string; name: string; response: { output?: string; error?: string } } };

let h: Harness;
beforeAll(async () => {
  h = await createHarness('workspace-paths');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

const NUL = 'src/a\u0000.txt';
const LONG = `src/${'n'.repeat(300)}/a.txt`;

function calls(bad: string) {
  return [
    { name: 'read_file', args: { file_path: bad } },
    { name: 'write_file', args: { file_path: bad, content: 'x' } },
    { name: 'replace', args: { file_path: bad, old_string: 'a', new_string: 'b' } },
    { name: 'list_directory', args: { dir_path: bad } },
    { name: 'glob', args: { pattern: '*.txt', dir_path: bad } },
    { name: 'grep_search', args: { pattern: 'a', dir_path: bad } },
    { name: 'run_shell_command', args: { command: 'true', dir_path: bad } },
  ];
}

test.each([
  ['a NUL byte', NUL, /NUL character/],
  ['a 300-character name', LONG, /too long/],
])('a path with %s gets an error result from every tool, and the prompt completes', async (_, bad, message) => {
  const ws = h.workspace({ 'src/a.txt': 'a\n' });
  const run = await h.run([functionCallResponse(calls(bad)), textResponse('done')], { workspace: ws });
  expect(run.error).toBeUndefined();
  expect(run.result?.terminateReason).toBe('completed');
  const contents = (h.fake.requests[1].body as { contents: { parts: Part[] }[] }).contents;
  const responses = contents[contents.length - 1].parts.map((p) => p.functionResponse);
  expect(responses.map((r) => r.name)).toEqual(calls(bad).map((c) => c.name));
  for (const { name, response } of responses) {
    expect({ name, error: response.error }).toEqual({ name, error: expect.stringMatching(message) });
  }
});
