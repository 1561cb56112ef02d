/**
 * The binary with the prompt's features: a mistyped `@path` is left out with a warning, one out of
 * the workspace stops `run` with exit 42 before anything starts; a referenced file and the model's todo
 * list show in stream-json and in `status` (text and `--json`). Run `npm run build` first: the binary runs `dist/`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { expectExit, sandboxesCleanedAfterEach } from '../helpers/cli';
import { TEST_ENV_VARS } from '../helpers/temporal-env';

jest.setTimeout(180_000);

const sharedAddress = () => process.env[TEST_ENV_VARS.address] as string;
const sandbox = sandboxesCleanedAfterEach();

test('a missing @path warns on stderr and the prompt goes on with its text as written', async () => {
  const box = sandbox('at-missing', sharedAddress());
  const script = box.script([textResponse('went on')]);
  const result = await box.run(['run', 'Fix @src/nope.ts now', '--fake-responses', script, '-w', box.workspace]);
  expectExit(result, 0);
  expect(result.stderr).toMatch(
    /\[WARNING\] Referenced files left out: @src\/nope\.ts \(does not exist in the workspace\)/,
  );
  expect(result.stdout).toBe('went on\n');
});

test('an @path out of the workspace is exit 42 with the path named, and no prompt starts', async () => {
  const box = sandbox('at-outside', sharedAddress());
  fs.writeFileSync(path.join(box.workspace, '..', 'x.txt'), 'outside\n');
  const script = box.script([textResponse('never')]);
  const result = await box.run(['run', 'Read @../x.txt', '--fake-responses', script, '-w', box.workspace]);
  expectExit(result, 42);
  expect(result.stderr).toMatch(/@\.\.\/x\.txt is outside the workspace/);
  expect(result.stdout).toBe('');
});

test('stream-json shows the files read and the todo list; status shows the list in text and --json', async () => {
  const box = sandbox('at-todos', sharedAddress());
  fs.writeFileSync(path.join(box.workspace, 'notes.md'), 'remember the milk\n');
  const todos = [
    { description: 'Read the notes', status: 'completed' },
    { description: 'Buy milk', status: 'in_progress' },
  ];
  const script = box.script([functionCallResponse({ name: 'write_todos', args: { todos } }), textResponse('on it')]);
  const run = await box.run([
    'run',
    'Plan from @notes.md',
    '--fake-responses',
    script,
    '-w',
    box.workspace,
    '-o',
    'stream-json',
  ]);
  expectExit(run, 0);
  const lines = run.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(lines).toContainEqual(expect.objectContaining({ type: 'todos', todos }));
  const id = lines[0].session_id as string;

  const json = await box.run(['status', id, '--json']);
  expectExit(json, 0);
  expect(JSON.parse(json.stdout)).toMatchObject({ status: 'completed', todos });
  const text = await box.run(['status', id]);
  expectExit(text, 0);
  expect(text.stdout).toContain('  todos:\n    [completed] Read the notes\n    [in_progress] Buy milk');

  const watch = await box.run(['watch', id]);
  expectExit(watch, 0);
  expect(watch.stderr).toContain('[files] notes.md added to the prompt');
  expect(watch.stderr).toContain('[todos] 1/2 completed; working on: Buy milk');
});
