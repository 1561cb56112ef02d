import * as fs from 'node:fs';
import * as path from 'node:path';
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, maybeRecordHistory, type Harness } from '../helpers/agent-harness';
import type { PromptInput } from '../../src/workflows/api';

type Part = { functionResponse: { id: string; name: string; response: { output?: string; error?: string } } };

let h: Harness;
beforeAll(async () => {
  h = await createHarness('tools');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

/** Runs one turn of calls and returns the function responses the model was sent next. */
async function oneTurn(
  calls: { name: string; args: Record<string, unknown> }[],
  workspace: string,
  input: Partial<PromptInput> = {},
) {
  const run = await h.run([functionCallResponse(calls), textResponse('ok')], {
    workspace,
    shellTimeoutMs: 1500,
    ...input,
  });
  expect(run.result?.terminateReason).toBe('completed');
  const contents = (h.fake.requests[1].body as { contents: { parts: Part[] }[] }).contents;
  return { run, responses: contents[contents.length - 1].parts.map((p) => p.functionResponse.response) };
}

test('every tool works end to end through the workflow', async () => {
  const ws = h.workspace({ 'src/app.ts': 'export const answer = 41;\n', 'README.md': '# app\n' });
  const { responses } = await oneTurn(
    [
      { name: 'list_directory', args: { dir_path: 'src' } },
      { name: 'glob', args: { pattern: '**/*.ts' } },
      { name: 'grep_search', args: { pattern: 'answer' } },
      { name: 'read_file', args: { file_path: 'src/app.ts' } },
      {
        name: 'replace',
        args: { file_path: 'src/app.ts', old_string: '41', new_string: '42', instruction: 'fix the answer' },
      },
      { name: 'write_file', args: { file_path: 'docs/notes.md', content: 'hello' } },
      { name: 'run_shell_command', args: { command: 'cat src/app.ts docs/notes.md' } },
    ],
    ws,
  );
  expect(responses.every((r) => r.error === undefined)).toBe(true);
  expect(responses[0].output).toContain('app.ts');
  expect(responses[1].output).toContain('src/app.ts');
  expect(responses[2].output).toContain('answer');
  expect(responses[3].output).toContain('41');
  expect(responses[6].output).toContain('answer = 42');
  expect(responses[6].output).toContain('hello');
  expect(fs.readFileSync(path.join(ws, 'src/app.ts'), 'utf8')).toBe('export const answer = 42;\n');
});

test(
  'bad arguments, unknown tools, missing files and failed matches come back as errors the model can ' + 'read',
  async () => {
    const ws = h.workspace({ 'a.txt': 'one two two' });
    const { run, responses } = await oneTurn(
      [
        { name: 'read_file', args: {} },
        { name: 'no_such_tool', args: { x: 1 } },
        { name: 'read_file', args: { file_path: 'missing.txt' } },
        { name: 'replace', args: { file_path: 'a.txt', old_string: 'three', new_string: '3' } },
        { name: 'replace', args: { file_path: 'a.txt', old_string: 'two', new_string: '2' } },
      ],
      ws,
      // The edit fixer (test/e2e/edit-correction.test.ts) would add a model call after the failed match.
      { editFixer: false },
    );
    expect(responses[0].error).toMatch(/file_path/);
    expect(responses[1].error).toMatch(/no_such_tool/);
    expect(responses[2].error).toMatch(/missing\.txt/);
    expect(responses[3].error).toMatch(/0 occurrences|not found|no occurrence/i);
    expect(responses[4].error).toMatch(/2/);
    expect(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8')).toBe('one two two');
    expect(run.status.stats?.toolCalls).toEqual({ total: 5, success: 0, failed: 5 });
    await maybeRecordHistory(h, run.workflowId, 'tool-errors');
  },
);

test('paths outside the workspace are refused, symlinks included', async () => {
  const ws = h.workspace({ 'inside.txt': 'ok' });
  const outside = h.workspace({ 'secret.txt': 'top secret' });
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(ws, 'link.txt'));
  fs.symlinkSync(outside, path.join(ws, 'linkdir'));
  const { responses } = await oneTurn(
    [
      { name: 'read_file', args: { file_path: '../secret.txt' } },
      { name: 'read_file', args: { file_path: path.join(outside, 'secret.txt') } },
      { name: 'read_file', args: { file_path: 'link.txt' } },
      { name: 'list_directory', args: { dir_path: 'linkdir' } },
      { name: 'write_file', args: { file_path: 'linkdir/new.txt', content: 'escape' } },
      { name: 'run_shell_command', args: { command: 'pwd', dir_path: '..' } },
    ],
    ws,
  );
  for (const r of responses) {
    expect(r.error).toMatch(/outside the workspace/i);
    expect(JSON.stringify(r)).not.toContain('top secret');
  }
  expect(fs.existsSync(path.join(outside, 'new.txt'))).toBe(false);
});

test('a shell command that runs past its timeout is killed and reported', async () => {
  const ws = h.workspace();
  const { responses } = await oneTurn(
    [{ name: 'run_shell_command', args: { command: 'echo started; sleep 30; echo never' } }],
    ws,
  );
  expect(responses[0].error).toMatch(/time|killed/i);
  expect(responses[0].error).toContain('started');
  expect(responses[0].error).not.toContain('never');
});

test('a non-zero exit is a result with the exit code, not a failure', async () => {
  const ws = h.workspace();
  const { responses } = await oneTurn([{ name: 'run_shell_command', args: { command: 'echo oops >&2; exit 3' } }], ws);
  expect(responses[0].output).toContain('oops');
  expect(responses[0].output).toMatch(/Exit Code: 3/);
});

test('large outputs are truncated to 40,000 characters with a note, and history stays small', async () => {
  const ws = h.workspace();
  const { run, responses } = await oneTurn(
    [{ name: 'run_shell_command', args: { command: "head -c 200000 /dev/zero | tr '\\0' 'x'" } }],
    ws,
  );
  expect(responses[0].output!.length).toBeLessThan(41_000);
  expect(/characters were cut from the middle/.test(responses[0].output!)).toBe(true);
  const history = await h.env.client.workflow.getHandle(run.workflowId).fetchHistory();
  const bytes = JSON.stringify(history).length;
  expect(bytes).toBeLessThan(40_000);
});

test('read_tool_output of a reference the store does not hold tells the model and the prompt goes on', async () => {
  const ref = `sha256:${'0'.repeat(64)}`;
  const { responses } = await oneTurn([{ name: 'read_tool_output', args: { ref } }], h.workspace({}));
  expect(responses[0].error).toContain(`No stored tool output ${ref}`);
});
