import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  errorLine,
  functionCallResponse,
  textResponse,
  type FunctionCallSpec,
  type ScriptLine,
} from '../../src/fake-gemini';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, maybeRecordHistory, type Harness } from '../helpers/agent-harness';
import { answerEvery } from '../helpers/approvals';

type Response = { output?: string; error?: string };
type Part = { functionResponse?: { response: Response }; text?: string };

let h: Harness;
beforeAll(async () => {
  h = await createHarness('edit-correction');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

/** The edit fixer's answer, as the fake Gemini server sends it for a `generateContent` call. */
const fixerAnswer = (answer: Record<string, unknown>): ScriptLine => ({
  method: 'generateContent',
  response: { candidates: [{ content: { role: 'model', parts: [{ text: JSON.stringify(answer) }] } }] },
});
const replace = (file_path: string, old_string: string, new_string: string): FunctionCallSpec => ({
  name: 'replace',
  args: { file_path, old_string, new_string },
});

/** The function responses the model was sent in its `n`-th streamed request (0-based). */
function responsesInStream(n: number): Response[] {
  const body = h.fake.requests.filter((r) => r.method === 'generateContentStream')[n].body as {
    contents: { parts: Part[] }[];
  };
  const parts = body.contents[body.contents.length - 1].parts;
  return parts.flatMap((p) => (p.functionResponse ? [p.functionResponse.response] : []));
}

function expectScriptUsedUp(): void {
  expect(h.fake.unexpected).toEqual([]);
  expect(h.fake.leftovers()).toEqual([]);
}

test('an over-escaped old_string and new_string are unescaped and matched, with no model call', async () => {
  const ws = h.workspace({ 'greet.js': 'function greet() {\n  return "hi";\n}\n' });
  const run = await h.run(
    [
      functionCallResponse(replace('greet.js', 'greet() {\\n  return \\"hi\\";', 'greet() {\\n  return \\"hello\\";')),
      textResponse('done'),
    ],
    { workspace: ws },
  );
  expect(run.result?.terminateReason).toBe('completed');
  expect(fs.readFileSync(path.join(ws, 'greet.js'), 'utf8')).toBe('function greet() {\n  return "hello";\n}\n');
  expect(responsesInStream(1)[0].output).toMatch(/Replaced 1 occurrence .*removing one level of escaping/);
  expect(h.fake.requests.map((r) => r.method)).toEqual(['generateContentStream', 'generateContentStream']);
  expectScriptUsedUp();
});

test('a replace whose old_string is not found gets one fixer call, applied only if it matches once', async () => {
  const ws = h.workspace({
    'app.py': 'def main():\n    print("hi")\n    return 0\n',
    'twice.py': 'x = 1\nx = 1\n',
    'done.py': 'y = 2\n',
    'conf.json': '{ "a": 1 }\n',
    'garbled.py': 'z = 3\n',
    'failing.py': 'w = 5\n',
  });
  const run = await h.run(
    [
      functionCallResponse([
        replace('app.py', 'def main():\n  print("hi")', 'def main():\n  print("hello")'),
        replace('twice.py', 'x =  1', 'x = 2'),
        replace('done.py', 'y = 1', 'y = 2'),
        replace('conf.json', '{ "a":1 }', '{ "a": 2 }'),
        replace('garbled.py', 'z=3', 'z = 4'),
        replace('failing.py', 'w=5', 'w = 6'),
      ]),
      fixerAnswer({
        search: 'def main():\n    print("hi")',
        replace: 'def main():\n    print("hello")',
        explanation: 'The file indents with four spaces.',
      }),
      fixerAnswer({ search: 'x = 1', replace: 'x = 2', explanation: 'Extra space.' }),
      fixerAnswer({ search: '', replace: '', explanation: 'y is already 2.', noChangesRequired: true }),
      {
        method: 'generateContent',
        response: { candidates: [{ content: { role: 'model', parts: [{ text: 'no' }] } }] },
      },
      // A server error is not retried (one attempt, as Gemini CLI's fixer): the next line is the model's turn.
      errorLine(500, 'INTERNAL', 'fixer unavailable', 'generateContent'),
      textResponse('done'),
    ],
    { workspace: ws },
  );
  expect(run.result?.terminateReason).toBe('completed');
  expect(fs.readFileSync(path.join(ws, 'app.py'), 'utf8')).toBe('def main():\n    print("hello")\n    return 0\n');
  expect(fs.readFileSync(path.join(ws, 'twice.py'), 'utf8')).toBe('x = 1\nx = 1\n');
  expect(fs.readFileSync(path.join(ws, 'conf.json'), 'utf8')).toBe('{ "a": 1 }\n');
  expect(fs.readFileSync(path.join(ws, 'garbled.py'), 'utf8')).toBe('z = 3\n');
  expect(fs.readFileSync(path.join(ws, 'failing.py'), 'utf8')).toBe('w = 5\n');
  const [fixed, twice, done, json, garbled, failing] = responsesInStream(1);
  expect(fixed.output).toMatch(/Replaced 1 occurrence of old_string in app\.py.*edit fixer.*four spaces/);
  expect(twice.error).toMatch(/old_string was not found in twice\.py/);
  expect(done.error).toMatch(/already.*y is already 2/);
  expect(json.error).toMatch(/old_string was not found in conf\.json/);
  expect(garbled.error).toMatch(/old_string was not found in garbled\.py/);
  expect(failing.error).toMatch(/old_string was not found in failing\.py/);
  const fixerCalls = h.fake.requests.filter((r) => r.method === 'generateContent');
  expect(fixerCalls.map((r) => r.model)).toEqual(Array(5).fill('gemini-3-flash-preview'));
  const prompt = JSON.stringify(fixerCalls[0].body);
  expect(prompt).toContain('  print(\\"hi\\")');
  expect(prompt).toContain('    return 0');
  expectScriptUsedUp();
  await maybeRecordHistory(h, run.workflowId, 'edit-fixer');
});

test('an edit of a file changed on disk since the model read it is refused until it reads it again', async () => {
  const ws = h.workspace({ 'notes.txt': 'alpha\nbeta\n', 'other.txt': 'one\n' });
  const run = await h.run(
    [
      functionCallResponse({ name: 'read_file', args: { file_path: 'notes.txt' } }),
      functionCallResponse({ name: 'run_shell_command', args: { command: 'echo gamma >> notes.txt' } }),
      functionCallResponse([
        replace('notes.txt', 'alpha', 'ALPHA'),
        { name: 'write_file', args: { file_path: './notes.txt', content: 'overwritten\n' } },
        replace('other.txt', 'one', 'ONE'),
      ]),
      functionCallResponse({ name: 'read_file', args: { file_path: 'notes.txt' } }),
      functionCallResponse(replace('notes.txt', 'alpha', 'ALPHA')),
      functionCallResponse(replace('notes.txt', 'beta', 'BETA')),
      textResponse('done'),
    ],
    { workspace: ws },
  );
  expect(run.result?.terminateReason).toBe('completed');
  const [refusedReplace, refusedWrite, unread] = responsesInStream(3);
  expect(refusedReplace.error).toMatch(/notes\.txt changed on disk after you last read it.*read_file/);
  expect(refusedWrite.error).toMatch(/notes\.txt changed on disk after you last read it/);
  expect(unread.output).toMatch(/Replaced 1 occurrence/);
  expect(responsesInStream(5)[0].output).toMatch(/Replaced 1 occurrence/);
  expect(responsesInStream(6)[0].output).toMatch(/Replaced 1 occurrence/);
  expect(fs.readFileSync(path.join(ws, 'notes.txt'), 'utf8')).toBe('ALPHA\nBETA\ngamma\n');
  expect(fs.readFileSync(path.join(ws, 'other.txt'), 'utf8')).toBe('ONE\n');
  expectScriptUsedUp();
});

test('an approved or allowed replace is not applied when the fixer also changes what new_string means, except in yolo', async () => {
  const file = 'def login(user):\n    password_check = True\n    timeout = 30\n    return user\n';
  const approved = replace('auth.py', 'def login(user):\n  timeout = 30', 'def login(user):\n  timeout = 60');
  const rewritten = fixerAnswer({
    search: '    password_check = True\n    timeout = 30',
    replace: '    password_check = False\n    timeout = 60',
    explanation: 'The file indents with four spaces.',
  });
  const ws = h.workspace({ 'auth.py': file });
  const handle = await h.start([functionCallResponse(approved), rewritten, textResponse('done')], {
    workspace: ws,
    approvalMode: 'default',
  });
  const asked = await answerEvery(handle, () => ({ outcome: 'proceed_once' }));
  const run = await h.finish(handle);
  expect(asked.map((call) => call.name)).toEqual(['replace']);
  expect(run.result?.terminateReason).toBe('completed');
  expect(fs.readFileSync(path.join(ws, 'auth.py'), 'utf8')).toBe(file);
  expect(responsesInStream(1)[0].error).toMatch(
    /old_string was not found in auth\.py.*edit fixer.*changed new_string.*not approved.*nothing was changed/s,
  );
  expect(run.events).toContainEqual(
    expect.objectContaining({ type: 'warning', message: expect.stringMatching(/not applied/) }),
  );
  expectScriptUsedUp();

  const auto = h.workspace({ 'auth.py': file });
  const script = [functionCallResponse(approved), rewritten, textResponse('done')];
  expect((await h.run(script, { workspace: auto, approvalMode: 'auto_edit' })).events).toContainEqual(
    expect.objectContaining({ type: 'warning', message: expect.stringMatching(/not applied/) }),
  );
  expect(fs.readFileSync(path.join(auto, 'auth.py'), 'utf8')).toBe(file);
  expect(responsesInStream(1)[0].error).toMatch(/changed new_string/);

  const yolo = h.workspace({ 'auth.py': file });
  const yoloRun = await h.run(script, { workspace: yolo });
  expect(yoloRun.result?.terminateReason).toBe('completed');
  expect(fs.readFileSync(path.join(yolo, 'auth.py'), 'utf8')).toContain('password_check = False\n    timeout = 60');
  expectScriptUsedUp();
});
