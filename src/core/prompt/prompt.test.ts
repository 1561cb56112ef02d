import { toolNames } from '../../tools';
import { PLAN_MODE_TOPIC, PROMPT_TOPICS } from '../../../test/helpers/prompt-topics';
import { buildSystemPrompt, type PromptContext } from '.';

/** Every tool we declare, and the two of Gemini CLI 0.61.0 the prompt already speaks of when offered. */
const ALL_TOOLS = [...toolNames, 'activate_skill', 'update_topic'];
const base: PromptContext = {
  workspace: '/work/project',
  platform: 'linux',
  date: 'Fri Nov 27 2026',
  toolNames: ALL_TOOLS,
  gitRepo: true,
  skills: [
    {
      name: 'pr-review',
      description: 'Reviews a pull request.',
      location: '/work/project/.durable-agent/skills/pr-review/SKILL.md',
      scope: 'workspace',
    },
  ],
};

describe('system prompt', () => {
  const main = buildSystemPrompt(base);

  it.each(Object.entries(PROMPT_TOPICS))('covers %s', (_topic, patterns) => {
    for (const pattern of patterns) expect(main).toMatch(pattern);
  });

  it('lists each skill by name and description', () => {
    expect(main).toMatch(/<name>pr-review<\/name>\n\s*<description>Reviews a pull request\./);
  });

  it('is at least half the size of Gemini CLI 0.61.0 on the same task (32 K characters)', () => {
    expect(main.length).toBeGreaterThanOrEqual(16_000);
    // The tools of a plain run today, without skills or topics.
    const plain = buildSystemPrompt({
      ...base,
      toolNames: ALL_TOOLS.filter((t) => !['activate_skill', 'update_topic'].includes(t)),
    });
    expect(plain.length).toBeGreaterThanOrEqual(16_000);
  });

  it('plan mode swaps the engineering workflows for the planning workflow', () => {
    const plan = buildSystemPrompt({ ...base, mode: 'plan' });
    for (const pattern of PLAN_MODE_TOPIC) expect(plan).toMatch(pattern);
    expect(plan).not.toMatch(/# Software engineering tasks/);
    expect(plan).not.toMatch(/# New applications/);
    expect(main).not.toMatch(/# Plan mode/);
  });

  it('an unattended run is told that nobody can answer, and is not offered questions', () => {
    const alone = buildSystemPrompt({ ...base, unattended: true });
    expect(alone).toMatch(/# Unattended run/);
    expect(alone).toMatch(/nobody is there to answer questions/);
    expect(alone).toMatch(/Do not call `ask_user`/);
    expect(alone).not.toMatch(/ask before you act/);
    expect(main).not.toMatch(/# Unattended run/);
  });

  it("a sub-agent gets its own preamble, the safety and tool sections, and not the main agent's workflows", () => {
    const sub = buildSystemPrompt({ ...base, preamble: 'You are the investigator.' });
    expect(sub.startsWith('You are the investigator.')).toBe(true);
    expect(sub).toMatch(/# Running as a sub-agent/);
    expect(sub).toMatch(/# Security and untrusted content/);
    expect(sub).toMatch(/# Using the tools/);
    expect(sub).not.toMatch(/# Software engineering tasks/);
    expect(sub).not.toMatch(/You are durable-agent/);
  });

  it('leaves out what the request does not offer: git outside a repository, skills without activate_skill', () => {
    const bare = buildSystemPrompt({ ...base, gitRepo: false, toolNames: ['read_file'] });
    expect(bare).not.toMatch(/# Git/);
    expect(bare).not.toMatch(/# Skills/);
    expect(bare).not.toMatch(/# Sub-agents/);
    expect(buildSystemPrompt({ ...base, skills: [] })).not.toMatch(/# Skills/);
  });

  it('appends the project context after a rule', () => {
    expect(buildSystemPrompt({ ...base, memory: 'Use tabs.' }).endsWith('\n\n---\n\nUse tabs.')).toBe(true);
  });
});
