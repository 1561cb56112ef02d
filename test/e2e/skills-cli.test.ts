/**
 * `durable-agent skills list` through the real binary: the skills a prompt would be offered, where each
 * lives, and the ones skipped and why; the workspace's own only when it is trusted.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { expectExit, sandboxesCleanedAfterEach, type Sandbox } from '../helpers/cli';
import { TEST_ENV_VARS } from '../helpers/temporal-env';

jest.setTimeout(120_000);

const sandbox = sandboxesCleanedAfterEach();

function write(file: string, text: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return fs.realpathSync(file);
}

/** A user skill, a workspace skill, and a workspace SKILL.md without a name. */
function project(name: string): { box: Sandbox; user: string; ours: string; nameless: string } {
  const box = sandbox(name, process.env[TEST_ENV_VARS.address]);
  const user = write(
    path.join(box.home, 'skills', 'notes', 'SKILL.md'),
    '---\nname: notes\ndescription: Notes.\n---\nx',
  );
  const skills = path.join(box.workspace, '.durable-agent', 'skills');
  const ours = write(path.join(skills, 'review', 'SKILL.md'), '---\nname: review\ndescription: Reviews.\n---\ny');
  const nameless = write(path.join(skills, 'nameless', 'SKILL.md'), '---\ndescription: No name.\n---\nz');
  return { box, user, ours, nameless };
}

test('skills list names each skill, its scope and location, and what is skipped and why', async () => {
  const { box, user, ours, nameless } = project('list');
  const untrusted = await box.run(['skills', 'list', '-w', box.workspace]);
  expectExit(untrusted, 0);
  expect(untrusted.stdout).toBe(
    `Skills (1):\n  notes (user) ${user}\n    Notes.\n\nSkipped (2):\n` +
      `  ${path.dirname(path.dirname(nameless))}/nameless/SKILL.md\n    the workspace is not trusted (durable-agent trust)\n` +
      `  ${path.dirname(path.dirname(ours))}/review/SKILL.md\n    the workspace is not trusted (durable-agent trust)\n`,
  );
  const trusted = await box.run(['skills', 'list', '-w', box.workspace, '--trust-workspace', '--json']);
  expectExit(trusted, 0);
  expect(JSON.parse(trusted.stdout)).toEqual({
    skills: [
      { name: 'notes', description: 'Notes.', location: user, scope: 'user' },
      { name: 'review', description: 'Reviews.', location: ours, scope: 'workspace' },
    ],
    skipped: [{ location: nameless, reason: 'its front matter has no name' }],
  });
});

test('skills list says when there are none, and refuses a workspace that is not a directory', async () => {
  const box = sandbox('none', process.env[TEST_ENV_VARS.address]);
  const none = await box.run(['skills', 'list', '-w', box.workspace]);
  expectExit(none, 0);
  expect(none.stdout).toBe(`No skills found (looked in ${path.join(box.home, 'skills')} and the workspace).\n`);
  const missing = await box.run(['skills', 'list', '-w', path.join(box.workspace, 'missing')]);
  expectExit(missing, 42);
  expect(missing.stderr).toContain(`${path.join(box.workspace, 'missing')} is not a directory`);
});
