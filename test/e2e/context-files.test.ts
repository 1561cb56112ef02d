import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { agentSessionWorkflow } from '../../src/workflows/session-workflow';
import { closeSessionSignal, sendMessageUpdate, type PromptResult } from '../../src/workflows/api';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, maybeRecordHistory, type Harness } from '../helpers/agent-harness';
import { promptResultOnceStarted } from '../helpers/session-prompts';

/**
 * Project context files end to end: the real dev server, a worker whose home holds the user-level
 * GEMINI.md, the real SDK against the fake Gemini server, which records each request's system instruction.
 */
let h: Harness;
let home: string;
beforeAll(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'context-home-'));
  h = await createHarness('context-files', { home });
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});
beforeEach(() => fs.rmSync(path.join(home, 'GEMINI.md'), { force: true }));

/** The system instruction of the `n`th request the fake server received. */
function system(n: number): string {
  const body = h.fake.requests[n].body as { systemInstruction?: { parts?: { text?: string }[] } };
  return (body.systemInstruction?.parts ?? []).map((p) => p.text ?? '').join('');
}

function block(name: string, text: string): string {
  return `--- Context from: ${name} ---\n${text}\n--- End of Context from: ${name} ---`;
}

/** A project (a `.git` at its root) with the workspace in `pkg/`. */
function project(files: Record<string, string>): string {
  const root = h.workspace({ '.git/HEAD': 'ref: refs/heads/main\n', ...files });
  return path.join(root, 'pkg');
}

test('the user file, the project root down to the workspace, then its subfolders reach every request', async () => {
  fs.writeFileSync(path.join(home, 'GEMINI.md'), 'user rules\n');
  const workspace = project({
    'GEMINI.md': 'root rules',
    'pkg/GEMINI.md': 'pkg rules\n',
    'pkg/sub/GEMINI.md': 'sub rules',
    'pkg/b/GEMINI.md': 'b rules',
    'pkg/.gitignore': 'ignored/\n',
    'pkg/ignored/GEMINI.md': 'ignored rules',
    'pkg/node_modules/x/GEMINI.md': 'module rules',
    'pkg/empty/GEMINI.md': '  \n',
  });
  const run = await h.run(
    [functionCallResponse({ name: 'list_directory', args: { dir_path: '.' } }), textResponse('done')],
    { workspace },
  );
  expect(run.result?.response).toBe('done');
  const memory = [
    block(path.relative(workspace, fs.realpathSync(path.join(home, 'GEMINI.md'))), 'user rules'),
    block('../GEMINI.md', 'root rules'),
    block('GEMINI.md', 'pkg rules'),
    block('b/GEMINI.md', 'b rules'),
    block('sub/GEMINI.md', 'sub rules'),
  ].join('\n\n');
  expect(system(0).endsWith(`\n\n---\n\n${memory}`)).toBe(true);
  expect(system(1)).toBe(system(0));
  expect(system(0)).not.toMatch(/ignored rules|module rules/);
  const loaded = run.events.find((e) => e.type === 'memory_loaded');
  expect(loaded).toMatchObject({ files: expect.arrayContaining(['GEMINI.md', 'b/GEMINI.md']), chars: memory.length });
  // Read once, by an activity; history holds a reference, never the text.
  const history = await h.env.client.workflow.getHandle(run.workflowId).fetchHistory();
  const scheduled = history.events!.filter(
    (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'loadMemory',
  );
  expect(scheduled).toHaveLength(1);
  expect(JSON.stringify(history)).not.toContain('pkg rules');
  await maybeRecordHistory(h, run.workflowId, 'project-memory');
});

test('context.fileName chooses the file names and their order within a folder', async () => {
  const workspace = project({ 'pkg/AGENTS.md': 'agents text', 'pkg/GEMINI.md': 'gemini text', 'pkg/OTHER.md': 'x' });
  await h.run([textResponse('ok')], { workspace, contextFileNames: ['AGENTS.md', 'GEMINI.md'] });
  expect(system(0)).toContain(`${block('AGENTS.md', 'agents text')}\n\n${block('GEMINI.md', 'gemini text')}`);
  await h.run([textResponse('ok')], { workspace });
  expect(system(0)).toContain(block('GEMINI.md', 'gemini text'));
  expect(system(0)).not.toContain('agents text');
});

test('@path imports: relative, confined to the project, once each, at most five deep', async () => {
  const chain = Object.fromEntries([1, 2, 3, 4, 5, 6].map((k) => [`pkg/docs/d${k}.md`, `d${k} text\n@./d${k + 1}.md`]));
  const workspace = project({
    'pkg/GEMINI.md': 'top\n@./docs/style.md\nin code: `@./docs/d1.md`\n@../../secret.md\n@./missing.md',
    'pkg/docs/style.md': 'style text\n@../GEMINI.md\n@./d1.md',
    ...chain,
  });
  fs.writeFileSync(path.join(workspace, '..', '..', 'secret.md'), 'secret text');
  const run = await h.run([textResponse('ok')], { workspace });
  const text = system(0);
  expect(text).toContain(
    '<!-- Imported from: ./docs/style.md -->\nstyle text\n<!-- File already imported: ../GEMINI.md -->',
  );
  expect(text).toContain('in code: `@./docs/d1.md`');
  expect(text).toMatch(/<!-- Import failed: \.\.\/\.\.\/secret\.md - outside /);
  expect(text).toContain('<!-- Import failed: ./missing.md - file not found -->');
  expect(text).not.toContain('secret text');
  // GEMINI.md is level 0, style.md 1, d1 2, ... d4 is the fifth level: its own import stays as written.
  expect(text).toContain('d4 text\n@./d5.md');
  expect(text).not.toContain('d5 text');
  const warnings = run.events.filter((e) => e.type === 'warning').map((e) => JSON.stringify(e));
  expect(warnings.join('\n')).toMatch(/secret\.md skipped: outside[\s\S]*missing\.md skipped: file not found/);
});

test('a sub-agent gets the prompt’s context in its system instruction too, loaded once by the parent', async () => {
  const workspace = project({ 'pkg/GEMINI.md': 'shared rules', 'pkg/a.txt': 'A' });
  const run = await h.run(
    [
      functionCallResponse({ name: 'invoke_agent', args: { agent_name: 'generalist', prompt: 'look' } }),
      functionCallResponse({ name: 'complete_task', args: { result: 'seen' } }),
      textResponse('done'),
    ],
    { workspace },
  );
  expect(run.result?.response).toBe('done');
  expect(system(1)).toContain(block('GEMINI.md', 'shared rules'));
  expect(system(1)).not.toBe(system(0));
  const history = await h.env.client.workflow.getHandle(run.workflowId).fetchHistory();
  const loads = history.events!.filter(
    (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'loadMemory',
  );
  expect(loads).toHaveLength(1);
});

test('what cannot be a context file is passed over: a folder of that name, a dangling link', async () => {
  const workspace = project({ 'pkg/sub/GEMINI.md/inner.txt': 'x', 'pkg/b/GEMINI.md': 'b rules' });
  fs.symlinkSync(path.join(workspace, 'nowhere.md'), path.join(workspace, 'GEMINI.md'));
  const run = await h.run([textResponse('ok')], { workspace });
  expect(run.result?.response).toBe('ok');
  expect(system(0).endsWith(`---\n\n${block('b/GEMINI.md', 'b rules')}`)).toBe(true);
  expect(run.events.find((e) => e.type === 'memory_loaded')).toMatchObject({ files: ['b/GEMINI.md'] });
});

test('context files that cannot be read at all are a warning, and the prompt runs without them', async () => {
  const workspace = path.join(project({}), 'gone');
  const run = await h.run([textResponse('ok')], { workspace });
  expect(run.result?.response).toBe('ok');
  expect(system(0)).not.toContain('--- Context from:');
  const warning = run.events.find((e) => e.type === 'warning') as { message?: string } | undefined;
  expect(warning?.message).toMatch(/^context files could not be read: .*ENOENT.*gone/);
});

test('a workspace without context files sends the plain system instruction', async () => {
  const workspace = project({ 'pkg/a.txt': 'A' });
  const run = await h.run([textResponse('ok')], { workspace });
  expect(system(0)).not.toContain('--- Context from:');
  expect(run.events.some((e) => e.type === 'memory_loaded')).toBe(false);
});

test('a session reloads the context at the start of each prompt: an edit between messages is seen', async () => {
  const workspace = project({ 'pkg/GEMINI.md': 'version one' });
  h.fake.load([textResponse('first'), textResponse('second')]);
  const session = await h.env.client.workflow.start(agentSessionWorkflow, {
    taskQueue: h.taskQueue,
    workflowId: `context-session-${Date.now()}`,
    args: [{ defaults: { workspace, model: 'gemini-test-model', approvalMode: 'yolo', maxTurns: 5 } }],
  });
  const first = await session.executeUpdate(sendMessageUpdate, { args: [{ text: 'one' }] });
  await resultOf(first);
  fs.writeFileSync(path.join(workspace, 'GEMINI.md'), 'version two');
  const second = await session.executeUpdate(sendMessageUpdate, { args: [{ text: 'two' }] });
  expect((await resultOf(second)).response).toBe('second');
  expect(system(0)).toContain(block('GEMINI.md', 'version one'));
  expect(system(1)).toContain(block('GEMINI.md', 'version two'));
  expect(system(1)).not.toContain('version one');
  await session.signal(closeSessionSignal);
});

function resultOf(promptId: string): Promise<PromptResult> {
  return promptResultOnceStarted(h.env.client, promptId);
}
