import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MAX_SKILL_FILE_BYTES } from '../../core/skills';
import { FileTranscriptStore } from '../../store/file-store';
import { activateSkill } from './activate';
import { discoverSkills, skillWarnings } from './discover';
import { parseSkillText } from './read';

let dir: string;
let home: string;
let workspace: string;

beforeEach(async () => {
  dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'skills-')));
  home = path.join(dir, 'home');
  workspace = path.join(dir, 'workspace');
  await fs.mkdir(workspace, { recursive: true });
});
afterEach(() => fs.rm(dir, { recursive: true, force: true }));

const skillText = (name: string, description: string, body = 'Do it well.') =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

async function writeSkill(folder: string, text: string): Promise<string> {
  await fs.mkdir(folder, { recursive: true });
  await fs.writeFile(path.join(folder, 'SKILL.md'), text);
  return path.join(folder, 'SKILL.md');
}

describe('parseSkillText', () => {
  it('reads name, description and body; other keys are ignored', async () => {
    const text =
      '---\nname: pr-review\ndescription: >\n  Reviews a pull\n  request.\nlicense: MIT\n---\n\n# Steps\n1. Read\n';
    expect(await parseSkillText(text)).toEqual({
      ok: true,
      name: 'pr-review',
      description: 'Reviews a pull request.',
      body: '# Steps\n1. Read',
    });
  });

  it('keeps a name that could not be a file name as Gemini CLI does', async () => {
    const parsed = await parseSkillText(skillText('"a:b/c"', 'x'));
    expect(parsed).toMatchObject({ ok: true, name: 'a-b-c' });
  });

  it.each([
    ['no front matter', '# just markdown\n', 'does not start with YAML front matter'],
    ['no name', '---\ndescription: d\n---\nbody', 'has no name'],
    ['no description', '---\nname: n\n---\nbody', 'has no description'],
    ['a blank name', '---\nname: " "\ndescription: d\n---\n', 'name must be a non-empty string'],
    ['a list for front matter', '---\n- a\n- b\n---\n', 'must be "key: value" lines'],
    ['invalid YAML', '---\nname: [unclosed\ndescription: d\n---\n', 'not valid YAML'],
    ['a name too long', skillText('n'.repeat(65), 'd'), 'name is 65 characters, over the limit of 64'],
  ])('refuses %s, saying why', async (_, text, reason) => {
    const parsed = await parseSkillText(text);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.reason).toContain(reason);
  });
});

describe('discoverSkills', () => {
  it('finds user skills and, in a trusted workspace, the workspace folders, the later of one name winning', async () => {
    await writeSkill(path.join(home, 'skills', 'review'), skillText('review', 'user review'));
    await writeSkill(path.join(home, 'skills', 'notes'), skillText('notes', 'user notes'));
    await writeSkill(path.join(workspace, '.gemini', 'skills', 'deploy'), skillText('deploy', 'from gemini'));
    await writeSkill(path.join(workspace, '.agents', 'skills', 'lint'), skillText('lint', 'from agents'));
    const ours = await writeSkill(path.join(workspace, '.durable-agent', 'skills', 'rev'), skillText('Review', 'ours'));
    const found = await discoverSkills({ workspace, home, trusted: true });
    expect(found.skills.map((s) => [s.name, s.description, s.scope])).toEqual([
      ['notes', 'user notes', 'user'],
      ['deploy', 'from gemini', 'workspace'],
      ['lint', 'from agents', 'workspace'],
      ['Review', 'ours', 'workspace'],
    ]);
    expect(found.skills[3].location).toBe(ours);
    expect(skillWarnings(found.skipped)).toEqual([
      `skill "review" in ${path.join(home, 'skills', 'review', 'SKILL.md')} is overridden by ${ours}`,
    ]);
  });

  it('skips the skills of an untrusted workspace, naming each, and still offers the user skills', async () => {
    await writeSkill(path.join(home, 'skills', 'notes'), skillText('notes', 'user notes'));
    const file = await writeSkill(path.join(workspace, '.durable-agent', 'skills', 'x'), skillText('x', 'y'));
    const found = await discoverSkills({ workspace, home, trusted: false });
    expect(found.skills.map((s) => s.name)).toEqual(['notes']);
    expect(found.skipped).toEqual([{ location: file, reason: 'the workspace is not trusted (durable-agent trust)' }]);
  });

  it('reads a SKILL.md at the top of a skills folder, and nothing deeper than one level', async () => {
    await writeSkill(path.join(home, 'skills'), skillText('top', 'at the top'));
    await writeSkill(path.join(home, 'skills', 'a', 'b'), skillText('deep', 'too deep'));
    expect((await discoverSkills({ workspace, home, trusted: true })).skills.map((s) => s.name)).toEqual(['top']);
  });

  it('skips bad files with a clear warning and keeps the good ones', async () => {
    const skills = path.join(workspace, '.durable-agent', 'skills');
    const plain = await writeSkill(path.join(skills, 'plain'), '# no front matter\n');
    const nameless = await writeSkill(path.join(skills, 'nameless'), '---\ndescription: d\n---\n');
    const big = await writeSkill(path.join(skills, 'big'), skillText('big', 'd', 'x'.repeat(MAX_SKILL_FILE_BYTES)));
    await writeSkill(path.join(skills, 'good'), skillText('good', 'fine'));
    const found = await discoverSkills({ workspace, home, trusted: true });
    expect(found.skills.map((s) => s.name)).toEqual(['good']);
    const warnings = skillWarnings(found.skipped);
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(
      new RegExp(`^${big}: skipped: it is \\d+ bytes, over the limit of ${MAX_SKILL_FILE_BYTES}$`),
    );
    expect(warnings[1]).toBe(`${nameless}: skipped: its front matter has no name`);
    expect(warnings[2]).toBe(`${plain}: skipped: it does not start with YAML front matter between "---" lines`);
  });

  it('refuses a SKILL.md or a skill folder that links outside its root', async () => {
    const outside = path.join(dir, 'outside');
    await writeSkill(outside, skillText('secret', 'leaks'));
    const skills = path.join(workspace, '.durable-agent', 'skills');
    await fs.mkdir(path.join(skills, 'file-link'), { recursive: true });
    await fs.symlink(path.join(outside, 'SKILL.md'), path.join(skills, 'file-link', 'SKILL.md'));
    await fs.symlink(outside, path.join(skills, 'folder-link'));
    const found = await discoverSkills({ workspace, home, trusted: true });
    expect(found.skills).toEqual([]);
    expect(found.skipped.map((s) => s.reason)).toEqual([
      `it links to ${path.join(outside, 'SKILL.md')}, outside ${workspace}`,
      `it links to ${path.join(outside, 'SKILL.md')}, outside ${workspace}`,
    ]);
  });

  it('finds nothing, and warns of nothing, where there are no skills folders', async () => {
    expect(await discoverSkills({ workspace, home, trusted: true })).toEqual({ skills: [], skipped: [] });
  });
});

describe('activateSkill', () => {
  it("answers with the skill's instructions and its folder's files", async () => {
    const folder = path.join(home, 'skills', 'review');
    await writeSkill(folder, skillText('review', 'reviews', '# Review\nRun scripts/check.sh.'));
    await fs.mkdir(path.join(folder, 'scripts'));
    await fs.writeFile(path.join(folder, 'scripts', 'check.sh'), 'true\n');
    const [skill] = (await discoverSkills({ workspace, home, trusted: true })).skills;
    const store = new FileTranscriptStore(path.join(dir, 'store'));
    const out = await activateSkill(store, { skill });
    if (!out.ok) throw new Error(out.message);
    const { output } = JSON.parse(await store.getBlob(out.responseRef)) as { output: string };
    expect(output).toContain('<activated_skill name="review">\n<instructions>\n# Review\nRun scripts/check.sh.\n');
    expect(output).toMatch(/<available_resources>\n[^]*\n {2}SKILL\.md\n {2}scripts\/\n {4}check\.sh\n/);
    expect(out.preview).toBe(output.slice(0, 300));
  });

  it('refuses a skill whose file went bad or was swapped for a link since it was found', async () => {
    const file = await writeSkill(path.join(home, 'skills', 'review'), skillText('review', 'reviews'));
    const [skill] = (await discoverSkills({ workspace, home, trusted: true })).skills;
    const store = new FileTranscriptStore(path.join(dir, 'store'));
    await fs.writeFile(file, 'no front matter');
    expect(await activateSkill(store, { skill })).toEqual({
      ok: false,
      message: `Skill "review" cannot be activated: ${file}: it does not start with YAML front matter between "---" lines.`,
    });
    await fs.rm(file);
    await fs.symlink(path.join(dir, 'elsewhere'), file);
    expect(await activateSkill(store, { skill })).toEqual({
      ok: false,
      message: `Skill "review" cannot be activated: ${file} is gone or now a link.`,
    });
  });
});
