/**
 * A catastrophic regular expression (`^(a+)+$` over a line of a's ending in b) sent to grep_search
 * through the whole agent, with the worker's default limit: the model gets a timeout error result,
 * the worker stays responsive (the next turn's tool call runs), and the prompt completes.
 */
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, type Harness } from '../helpers/agent-harness';

type Part = { functionResponse: { name: string; response: { output?: string; error?: string } } };

let h: Harness;
beforeAll(async () => {
  h = await createHarness('grep-timeout');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

test('a catastrophic grep pattern gets a timeout error result and the agent goes on', async () => {
  const ws = h.workspace({ 'evil.txt': `${'a'.repeat(40)}b\n`, 'notes.txt': 'still here\n' });
  const run = await h.run(
    [
      functionCallResponse([{ name: 'grep_search', args: { pattern: '^(a+)+$' } }]),
      functionCallResponse([{ name: 'read_file', args: { file_path: 'notes.txt' } }]),
      textResponse('done'),
    ],
    { workspace: ws },
  );
  expect(run.error).toBeUndefined();
  expect(run.result?.terminateReason).toBe('completed');
  const lastParts = (request: number) => {
    const contents = (h.fake.requests[request].body as { contents: { parts: Part[] }[] }).contents;
    return contents[contents.length - 1].parts.map((p) => p.functionResponse);
  };
  const [grep] = lastParts(1);
  expect(grep.name).toBe('grep_search');
  expect(grep.response.error).toMatch(/too slow.*Simplify the pattern/s);
  expect(lastParts(2)[0].response).toEqual({ output: 'still here\n' });
});
