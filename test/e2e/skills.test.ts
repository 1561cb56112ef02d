import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { statusQuery, toolConfirmationSignal, type PromptStatus } from '../../src/workflows/api';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, type Harness } from '../helpers/agent-harness';

/**
 * Agent Skills end to end: the real dev server, a worker whose home holds user skills, the real SDK
 * against the fake Gemini server, which records what each request offers and carries.
 */
let h: Harness;
let home: string;
beforeAll(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'skills-home-'));
  h = await createHarness('skills', { home });
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
  fs.rmSync(home, { recursive: true, force: true });
});
beforeEach(() => fs.rmSync(path.join(home, 'skills'), { recursive: true, force: true }));

const skill = (name: string, description: string, body: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

function homeSkill(folder: string, text: string): void {
  fs.mkdirSync(path.join(home, 'skills', folder), { recursive: true });
  fs.writeFileSync(path.join(home, 'skills', folder, 'SKILL.md'), text);
}

interface Body {
  systemInstruction?: { parts?: { text?: string }[] };
  tools?: {
    functionDeclarations?: { name: string; parametersJsonSchema?: { properties?: Record<string, unknown> } }[];
  }[];
  contents: { parts: { functionResponse?: { name: string; response: { output?: string } } }[] }[];
}

const body = (n: number) => h.fake.requests[n].body as Body;
const system = (n: number) => (body(n).systemInstruction?.parts ?? []).map((p) => p.text ?? '').join('');
const declared = (n: number) => (body(n).tools ?? []).flatMap((t) => t.functionDeclarations ?? []);
const declaration = (n: number, name: string) => declared(n).find((d) => d.name === name);
const lastResponse = (n: number) => {
  const parts = body(n).contents.flatMap((c) => c.parts);
  return parts.filter((p) => p.functionResponse).pop()?.functionResponse;
};

async function waitForPending(handle: WorkflowHandle): Promise<PromptStatus> {
  for (let i = 0; i < 200; i++) {
    const status = await handle.query(statusQuery);
    if (status.pendingApprovals.length > 0) return status;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('no call became pending');
}

test('the model is offered the skills, activates one after approval, and the next request carries its body', async () => {
  homeSkill('notes', skill('notes', 'Keeps release notes.', 'Write notes.'));
  const workspace = h.workspace({
    '.durable-agent/skills/pr-review/SKILL.md': skill('pr-review', 'Reviews a pull request.', '# Review\nRun it.'),
    '.durable-agent/skills/pr-review/scripts/check.sh': 'true\n',
  });
  const handle = await h.start(
    [functionCallResponse({ name: 'activate_skill', args: { name: 'pr-review' } }), textResponse('reviewed')],
    { workspace, approvalMode: 'default', workspaceTrusted: true },
  );
  const status = await waitForPending(handle);
  expect(status.pendingApprovals[0]).toMatchObject({ name: 'activate_skill', args: { name: 'pr-review' } });
  await handle.signal(toolConfirmationSignal, { callId: status.pendingApprovals[0].callId, outcome: 'proceed_once' });
  const run = await h.finish(handle);
  expect(run.result?.response).toBe('reviewed');
  const name = declaration(0, 'activate_skill')?.parametersJsonSchema?.properties?.name;
  expect(name).toMatchObject({ type: 'string', enum: ['notes', 'pr-review'] });
  expect(system(0)).toContain('# Skills');
  expect(system(0)).toMatch(/<name>pr-review<\/name>\s*<description>Reviews a pull request\.<\/description>/);
  expect(system(0)).toContain(
    `<location>${path.join(workspace, '.durable-agent/skills/pr-review/SKILL.md')}</location>`,
  );
  const response = lastResponse(1);
  expect(response?.name).toBe('activate_skill');
  expect(response?.response.output).toContain(
    '<activated_skill name="pr-review">\n<instructions>\n# Review\nRun it.\n',
  );
  expect(response?.response.output).toMatch(/<available_resources>[^]*scripts\/\n\s+check\.sh/);
});

test('an untrusted workspace’s skills and bad SKILL.md files are skipped with warnings; the user’s still offered', async () => {
  homeSkill('notes', skill('notes', 'Keeps release notes.', 'Write notes.'));
  homeSkill('broken', '# no front matter\n');
  const workspace = h.workspace({ '.gemini/skills/deploy/SKILL.md': skill('deploy', 'Deploys.', 'Ship it.') });
  const run = await h.run([textResponse('ok')], { workspace, workspaceTrusted: false });
  expect(declaration(0, 'activate_skill')?.parametersJsonSchema?.properties?.name).toMatchObject({ enum: ['notes'] });
  expect(system(0)).not.toContain('deploy');
  const warnings = run.events.flatMap((e) => (e.type === 'warning' ? [e.message] : []));
  expect(warnings).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^skills: .*broken\/SKILL\.md: skipped: it does not start with YAML front matter/),
      expect.stringMatching(/^skills: .*deploy\/SKILL\.md: skipped: the workspace is not trusted/),
    ]),
  );
});

test('without skills activate_skill is not offered; a name that is no skill is answered, not run', async () => {
  await h.run([textResponse('ok')], { workspace: h.workspace() });
  expect(declaration(0, 'activate_skill')).toBeUndefined();
  expect(system(0)).not.toContain('# Skills');
  homeSkill('notes', skill('notes', 'Keeps release notes.', 'Write notes.'));
  const run = await h.run(
    [functionCallResponse({ name: 'activate_skill', args: { name: 'nope' } }), textResponse('ok')],
    { workspace: h.workspace() },
  );
  expect(run.result?.response).toBe('ok');
  expect(JSON.stringify(lastResponse(1))).toContain('Skill \\"nope\\" not found. Available skills are: notes');
});

test('a GEMINI_SYSTEM_MD prompt gets the skills list where it writes ${AgentSkills}', async () => {
  homeSkill('notes', skill('notes', 'Keeps release notes.', 'Write notes.'));
  const workspace = h.workspace({ 'custom.md': 'You are terse.\n${AgentSkills}\nEnd.' });
  await h.run([textResponse('ok')], { workspace, systemMd: { replace: path.join(workspace, 'custom.md') } });
  expect(system(0)).toMatch(/^You are terse\.\n# Skills\n[^]*<name>notes<\/name>[^]*<\/available_skills>\nEnd\.$/);
});
