/**
 * `durable-agent memory show` and `context.fileName` through the real binary: what the command prints
 * is what a prompt loads, the workspace's settings count only when it is trusted, and a bad setting
 * stops with exit 52 before anything starts.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { textResponse } from '../../src/fake-gemini';
import { expectExit, sandboxesCleanedAfterEach, type Sandbox } from '../helpers/cli';
import { TEST_ENV_VARS } from '../helpers/temporal-env';

jest.setTimeout(120_000);

const sandbox = sandboxesCleanedAfterEach();

/** A project with `.git` at the workspace, a user file in the home, and AGENTS.md beside GEMINI.md. */
function project(name: string): Sandbox {
  const box = sandbox(name, process.env[TEST_ENV_VARS.address]);
  fs.mkdirSync(path.join(box.workspace, '.git'));
  fs.mkdirSync(box.home, { recursive: true });
  fs.writeFileSync(path.join(box.home, 'GEMINI.md'), 'user rules\n');
  fs.writeFileSync(path.join(box.workspace, 'GEMINI.md'), 'project rules\n@./docs/more.md\n');
  fs.mkdirSync(path.join(box.workspace, 'docs'));
  fs.writeFileSync(path.join(box.workspace, 'docs', 'more.md'), 'more rules');
  fs.writeFileSync(path.join(box.workspace, 'AGENTS.md'), 'agents rules\n');
  fs.mkdirSync(path.join(box.workspace, '.durable-agent'));
  fs.writeFileSync(
    path.join(box.workspace, '.durable-agent', 'settings.json'),
    JSON.stringify({ context: { fileName: ['AGENTS.md', 'GEMINI.md'] } }),
  );
  return box;
}

test('memory show prints the files and the text a prompt would load, imports expanded; the user file as ~/…', async () => {
  const box = project('show');
  // The user's home directory is the sandbox: the home of the agent is `~/home`.
  const result = await box.run(['memory', 'show', '-w', box.workspace], { env: { HOME: box.dir } });
  expectExit(result, 0);
  const home = path.relative(fs.realpathSync(box.workspace), fs.realpathSync(path.join(box.home, 'GEMINI.md')));
  expect(home).toBe('../home/GEMINI.md');
  // Untrusted: the workspace's context.fileName is not read, so AGENTS.md is not a context file.
  const text =
    `--- Context from: ${home} ---\nuser rules\n--- End of Context from: ${home} ---\n\n` +
    '--- Context from: GEMINI.md ---\nproject rules\n<!-- Imported from: ./docs/more.md -->\nmore rules\n' +
    '<!-- End of import from: ./docs/more.md -->\n--- End of Context from: GEMINI.md ---';
  expect(result.stdout).toBe(
    `Context files (2 files, ${text.length} characters):\n  ~/home/GEMINI.md\n  GEMINI.md\n\n${text}\n`,
  );
  const trusted = await box.run(['memory', 'show', '-w', box.workspace, '--trust-workspace']);
  expectExit(trusted, 0);
  const absolute = fs.realpathSync(path.join(box.home, 'GEMINI.md'));
  expect(trusted.stdout).toContain(`  ${absolute}\n  AGENTS.md\n  GEMINI.md\n`);
  expect(trusted.stdout.indexOf('agents rules')).toBeLessThan(trusted.stdout.indexOf('project rules'));
});

test('memory show in a folder without context files says so', async () => {
  const box = sandbox('empty', process.env[TEST_ENV_VARS.address]);
  fs.mkdirSync(path.join(box.workspace, '.git'));
  const result = await box.run(['memory', 'show', '-w', box.workspace]);
  expectExit(result, 0);
  expect(result.stdout).toBe('No context files found (looked for GEMINI.md).\n');
});

test('memory show names skipped imports on stderr; a missing folder is exit 42', async () => {
  const box = project('warn');
  fs.appendFileSync(path.join(box.workspace, 'GEMINI.md'), '@./nope.md\n');
  const result = await box.run(['memory', 'show', '-w', box.workspace]);
  expectExit(result, 0);
  expect(result.stdout).toContain('<!-- Import failed: ./nope.md - file not found -->');
  expect(result.stderr).toMatch(
    /\[WARNING\] context files: \S+GEMINI\.md: import @\.\/nope\.md skipped: file not found/,
  );
  const missing = await box.run(['memory', 'show', '-w', path.join(box.workspace, 'absent')]);
  expectExit(missing, 42);
  expect(missing.stderr).toContain('absent is not a directory');
});

test('a bad context.fileName stops memory show and run with exit 52, naming the file', async () => {
  const box = project('bad');
  fs.writeFileSync(path.join(box.home, 'settings.json'), JSON.stringify({ context: { fileName: ['../GEMINI.md'] } }));
  const shown = await box.run(['memory', 'show', '-w', box.workspace]);
  expectExit(shown, 52);
  expect(shown.stderr).toContain(
    `${path.join(box.home, 'settings.json')}: context.fileName: "../GEMINI.md" is not a file name`,
  );
  fs.writeFileSync(path.join(box.home, 'settings.json'), JSON.stringify({ context: { fileName: [] } }));
  const run = await box.run([
    'run',
    'go',
    '--fake-responses',
    box.script([textResponse('never')]),
    '-w',
    box.workspace,
  ]);
  expectExit(run, 52);
  expect(run.stderr).toMatch(/settings\.json: .*context\.fileName.*at least one file/);
});

test('run sends the context files the trusted settings name, and says which', async () => {
  const box = project('run');
  const run = await box.run([
    'run',
    'go',
    '--fake-responses',
    box.script([textResponse('done')]),
    '-w',
    box.workspace,
    '--trust-workspace',
  ]);
  expectExit(run, 0);
  expect(run.stdout).toContain('done');
  expect(run.stderr).toMatch(/\[context\] \S*GEMINI\.md, AGENTS\.md, GEMINI\.md \(\d+ characters\)/);
});
