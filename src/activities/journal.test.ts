import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { FileTranscriptStore } from '../store/file-store';
import { FileToolJournal } from '../store/journal';
import type { ToolOutcome } from '../core/types';
import { fingerprintTarget } from './interrupted';
import { runTool, type RunToolInput } from './run-tool';
import { fingerprint } from './tool-deps';

/** Invariant 7 at the activity edge: the journal decides whether a mutating call may run again. */
let root: string;
let workspace: string;
let store: FileTranscriptStore;
let journal: FileToolJournal;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'da-journal-'));
  workspace = path.join(root, 'ws');
  await fs.mkdir(workspace);
  workspace = await fs.realpath(workspace);
  store = new FileTranscriptStore(path.join(root, 'store'));
  journal = new FileToolJournal(path.join(root, 'journal'));
});
afterEach(() => fs.rm(root, { recursive: true, force: true }));

const quiet = () =>
  new MockActivityEnvironment({}, { logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} } });
const input = (name: string, args: Record<string, unknown>): RunToolInput => ({
  callId: 'c1',
  name,
  args,
  workspace,
  shellTimeoutMs: 10_000,
});
const run = (name: string, args: Record<string, unknown>, env = quiet()): Promise<ToolOutcome> =>
  env.run(runTool, { store, journal }, input(name, args));
const key = (env: MockActivityEnvironment) =>
  `${env.context.info.workflowExecution?.workflowId ?? env.context.info.workflowType}/c1`;

test('a finished call returns its recorded outcome and is not run again', async () => {
  const first = await run('write_file', { file_path: 'a.txt', content: 'one' });
  await fs.writeFile(path.join(workspace, 'a.txt'), 'changed since');
  const again = await run('write_file', { file_path: 'a.txt', content: 'one' });
  expect(again).toEqual(first);
  expect(await fs.readFile(path.join(workspace, 'a.txt'), 'utf8')).toBe('changed since');
});

test('an interrupted write whose content is already in place is not written again', async () => {
  const env = quiet();
  await journal.put(key(env), { state: 'started', attempt: 1 });
  await fs.writeFile(path.join(workspace, 'a.txt'), 'one');
  const outcome = await run('write_file', { file_path: 'a.txt', content: 'one' }, env);
  expect(outcome.ok).toBe(true);
  expect(outcome.preview).toMatch(/already holds this content/);
  // The prompt remembers the file as it is now, so the model's next edit of it is not refused as stale.
  expect(outcome.known).toEqual({ path: 'a.txt', fingerprint: fingerprint('one') });
});

describe('an interrupted write that had created the file and stopped mid-write', () => {
  const content = 'first line\nsecond line\n';
  test.each([
    ['empty', ''],
    ['half written', 'first li'],
  ])('(%s) is written again and reported as created, like the uninterrupted call', async (_label, partial) => {
    const env = quiet();
    await journal.put(key(env), { state: 'started', attempt: 1, before: 'absent' });
    await fs.writeFile(path.join(workspace, 'new.md'), partial);
    const outcome = await run('write_file', { file_path: 'new.md', content }, env);
    expect(outcome.preview).toBe('Created new.md (2 lines).');
    expect(await fs.readFile(path.join(workspace, 'new.md'), 'utf8')).toBe(content);
  });

  test('a file that is not a prefix of the content (someone else wrote it) is overwritten, not removed', async () => {
    const env = quiet();
    await journal.put(key(env), { state: 'started', attempt: 1, before: 'absent' });
    await fs.writeFile(path.join(workspace, 'new.md'), 'another text');
    const outcome = await run('write_file', { file_path: 'new.md', content }, env);
    expect(outcome.preview).toBe('Overwrote new.md (2 lines).');
  });
});

test('an interrupted write killed before its rename leaves no temporary file behind once it runs again', async () => {
  const env = quiet();
  await fs.writeFile(path.join(workspace, 'a.txt'), 'old');
  const before = await fingerprintTarget('write_file', { file_path: 'a.txt' }, workspace);
  await journal.put(key(env), { state: 'started', attempt: 1, before });
  await fs.writeFile(path.join(workspace, '.a.txt.0a1b2c3d4e5f.durable-agent.tmp'), 'ne');
  const outcome = await run('write_file', { file_path: 'a.txt', content: 'new' }, env);
  expect(outcome.preview).toBe('Overwrote a.txt (1 line).');
  expect(await fs.readdir(workspace)).toEqual(['a.txt']);
});

test('an interrupted replace that already happened reports success instead of "no occurrence"', async () => {
  const env = quiet();
  await journal.put(key(env), { state: 'started', attempt: 1 });
  await fs.writeFile(path.join(workspace, 'b.txt'), 'value = 2\n');
  const outcome = await run('replace', { file_path: 'b.txt', old_string: 'value = 1', new_string: 'value = 2' }, env);
  expect(outcome.ok).toBe(true);
  expect(outcome.preview).toMatch(/already in place/);
  expect(outcome.known).toEqual({ path: 'b.txt', fingerprint: fingerprint('value = 2\n') });
});

test('an interrupted replace that did not happen runs', async () => {
  const env = quiet();
  await journal.put(key(env), { state: 'started', attempt: 1 });
  await fs.writeFile(path.join(workspace, 'b.txt'), 'value = 1\n');
  const outcome = await run('replace', { file_path: 'b.txt', old_string: 'value = 1', new_string: 'value = 2' }, env);
  expect(outcome.ok).toBe(true);
  expect(await fs.readFile(path.join(workspace, 'b.txt'), 'utf8')).toBe('value = 2\n');
});

test('an interrupted shell command is reported as outcome unknown, not run', async () => {
  const env = quiet();
  await journal.put(key(env), { state: 'started', attempt: 1 });
  const outcome = await run('run_shell_command', { command: 'echo ran >> marker.txt' }, env);
  expect(outcome).toMatchObject({ ok: false, errorKind: 'outcome_unknown' });
  await expect(fs.access(path.join(workspace, 'marker.txt'))).rejects.toThrow();
});

describe('a replace whose new text contains the old one (appending after an anchor)', () => {
  const args = { file_path: 'c.txt', old_string: 'x = 1', new_string: 'x = 1\ny = 2' };
  const interruptedAt = async (env: MockActivityEnvironment) => {
    await fs.writeFile(path.join(workspace, 'c.txt'), 'x = 1\n');
    const before = await fingerprintTarget('replace', args, workspace);
    await journal.put(key(env), { state: 'started', attempt: 1, before });
  };

  test('is not applied twice when the interrupted attempt had made it', async () => {
    const env = quiet();
    await interruptedAt(env);
    await fs.writeFile(path.join(workspace, 'c.txt'), 'x = 1\ny = 2\n');
    const outcome = await run('replace', args, env);
    expect(outcome.preview).toMatch(/already in place/);
    expect(await fs.readFile(path.join(workspace, 'c.txt'), 'utf8')).toBe('x = 1\ny = 2\n');
  });

  test('runs once when the interrupted attempt had not', async () => {
    const env = quiet();
    await interruptedAt(env);
    await run('replace', args, env);
    expect(await fs.readFile(path.join(workspace, 'c.txt'), 'utf8')).toBe('x = 1\ny = 2\n');
  });

  test('keeps the first fingerprint when a retry is interrupted too', async () => {
    const env = quiet();
    await interruptedAt(env);
    const first = await journal.get(key(env));
    await fs.writeFile(path.join(workspace, 'c.txt'), 'x = 1\ny = 2\n');
    await journal.put(key(env), { state: 'started', attempt: 2, before: (first as { before?: string }).before });
    expect((await run('replace', args, env)).preview).toMatch(/already in place/);
  });
});

test('a retry attempt with no journal mark runs the command: no earlier attempt got as far as running it', async () => {
  const env = new MockActivityEnvironment(
    { attempt: 2 },
    { logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} } },
  );
  const outcome = await run('run_shell_command', { command: 'echo ran >> marker.txt' }, env);
  expect(outcome.ok).toBe(true);
  expect(await fs.readFile(path.join(workspace, 'marker.txt'), 'utf8')).toBe('ran\n');
});

test('read-only calls are not journaled', async () => {
  await fs.writeFile(path.join(workspace, 'r.txt'), 'r');
  const env = quiet();
  await run('read_file', { file_path: 'r.txt' }, env);
  expect(await journal.get(key(env))).toBeUndefined();
});
