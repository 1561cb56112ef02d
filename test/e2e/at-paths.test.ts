import { textResponse } from '../../src/fake-gemini';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, maybeRecordHistory, type Harness } from '../helpers/agent-harness';
import { withoutSessionContext } from '../helpers/sent-parts';

/**
 * `@path` in a prompt, end to end: an activity reads the referenced files (file, folder, glob; confined,
 * git-ignored and binary files left out) and their text reaches the first model request by store
 * reference, never workflow history. A reference to nothing is left out with a warning; one outside the
 * workspace fails the prompt before any model call.
 */
type Contents = { contents: { role: string; parts: { text?: string }[] }[] };

let h: Harness;
beforeAll(async () => {
  h = await createHarness('at-paths');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

const BIG = `export const big = 1;\n${'// filler line of the app\n'.repeat(400)}// TAIL-OF-APP-7f3a\n`;

function firstUserText(): string {
  const body = h.fake.requests[0].body as Contents;
  return withoutSessionContext(body.contents[0].parts)
    .map((p) => p.text ?? '')
    .join('\n');
}

async function historyText(workflowId: string): Promise<string> {
  const history = await h.env.client.workflow.getHandle(workflowId).fetchHistory();
  return JSON.stringify(history);
}

test('files, folders and globs are read into the first request; history holds only a reference', async () => {
  const workspace = h.workspace({
    'src/app.ts': BIG,
    'docs/a.md': 'DOC-A says hello\n',
    'docs/sub/b.md': 'DOC-B says hi\n',
    'conf/x.cfg': 'CFG-X = 1\n',
    'secret.env': 'TOKEN=SECRET-9\n',
    'logo.bin': Buffer.from([0, 1, 2, 3, 0, 9]).toString('binary'),
    '.gitignore': 'secret.env\n',
  });
  const prompt = 'Review @src/app.ts, then @docs and @conf/*.cfg (not @secret.env or @logo.bin).';
  const run = await h.run([textResponse('reviewed')], { workspace, prompt, approvalMode: 'default' });
  expect(run.result?.terminateReason).toBe('completed');
  const sent = firstUserText();
  expect(sent).toContain(prompt);
  for (const part of ['File @src/app.ts:', 'TAIL-OF-APP-7f3a', 'DOC-A says hello', 'DOC-B says hi', 'CFG-X = 1'])
    expect(sent).toContain(part);
  expect(sent).not.toContain('SECRET-9');
  const files = run.events.find((e) => e.type === 'referenced_files');
  expect(files).toMatchObject({ files: ['src/app.ts', 'docs/a.md', 'docs/sub/b.md', 'conf/x.cfg'] });
  const warning = run.events.find((e) => e.type === 'warning');
  expect(warning).toMatchObject({ message: expect.stringMatching(/secret\.env \(ignored by \.gitignore\)/) });
  expect(warning).toMatchObject({ message: expect.stringMatching(/logo\.bin \(.*binary/) });
  const history = await historyText(run.workflowId);
  expect(history).not.toContain('TAIL-OF-APP-7f3a');
  expect(history).not.toContain('DOC-B says hi');
  await maybeRecordHistory(h, run.workflowId, 'prompt-at-paths');
});

test('each file is cut as read_file cuts it, and past the total cap files are named, not read', async () => {
  const long = Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`).join('\n');
  const chunk = (tag: string) => `${tag}\n${'y'.repeat(999)}\n`.repeat(600);
  const workspace = h.workspace({
    'long.txt': long,
    'big/1.txt': chunk('B1'),
    'big/2.txt': chunk('B2'),
    'big/3.txt': chunk('B3'),
  });
  const run = await h.run([textResponse('ok')], { workspace, prompt: 'Read @long.txt and @big' });
  expect(run.result?.terminateReason).toBe('completed');
  const sent = firstUserText();
  expect(sent).toContain('line 2000');
  expect(sent).not.toContain('line 2001');
  expect(sent).toContain('B2');
  expect(sent).not.toContain('B3');
  const warning = run.events.find((e) => e.type === 'warning');
  expect(warning).toMatchObject({
    message: expect.stringMatching(/big\/3\.txt \(over the limit of 200 files or 1000000 chars\)/),
  });
});

test.each([
  ['a missing file', 'Fix @src/nope.ts please', /@src\/nope\.ts \(does not exist in the workspace\)/],
  ['a glob matching nothing', 'Read @**/*.rs', /@\*\*\/\*\.rs \(matches no file in the workspace\)/],
])('%s is left out with a warning and the prompt goes on, as Gemini CLI does', async (_label, prompt, message) => {
  const workspace = h.workspace({ 'src/app.ts': 'x\n' });
  const run = await h.run([textResponse('went on')], { workspace, prompt });
  expect(run.result?.terminateReason).toBe('completed');
  expect(run.events).toContainEqual(
    expect.objectContaining({ type: 'warning', message: expect.stringMatching(message) }),
  );
  expect(firstUserText()).toBe(prompt);
});

test('a path outside the workspace fails the prompt with a clear error before any model call', async () => {
  const workspace = h.workspace({ 'src/app.ts': 'x\n' });
  const run = await h.run([textResponse('never sent')], { workspace, prompt: 'Read @../../etc/passwd' });
  expect(run.result).toBeUndefined();
  expect(run.status).toMatchObject({
    status: 'failed',
    error: { type: 'AtPathReference', message: /outside the workspace/i },
  });
  expect(h.fake.requests).toHaveLength(0);
});

test('an @ inside a word, or alone, is text: the prompt runs without reading anything', async () => {
  const prompt = 'Mail me@example.com when done @ noon';
  const run = await h.run([textResponse('ok')], { workspace: h.workspace(), prompt });
  expect(run.result?.terminateReason).toBe('completed');
  expect(firstUserText()).toBe(prompt);
  expect(run.events.some((e) => e.type === 'referenced_files')).toBe(false);
});
