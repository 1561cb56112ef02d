/**
 * Agent Skills, as Gemini CLI 0.61.0 reads them: a folder holding `SKILL.md`, whose YAML front matter
 * gives `name` and `description` and whose body is the instructions the model gets when it activates
 * the skill. Pure: discovery and reading happen in activities, the workflow only holds the list.
 */

/** A discovered skill, as the model is offered it: small plain data, held in the prompt's state. */
export interface SkillListing {
  name: string;
  description: string;
  /** Real path of its `SKILL.md`; the folder holding it is the skill's resources. */
  location: string;
  /** Where it was found: the user's home or the workspace. */
  scope: 'user' | 'workspace';
}

/** A `SKILL.md` larger than this is skipped: its body goes whole into the conversation on activation. */
export const MAX_SKILL_FILE_BYTES = 64 * 1024;
/** The Agent Skills format's bounds on the two fields every request carries. */
export const MAX_SKILL_NAME_CHARS = 64;
export const MAX_SKILL_DESCRIPTION_CHARS = 1024;
/** Skills offered at most; past this the rest are skipped with a warning (the list is in every request). */
export const MAX_SKILLS = 100;

/** The name as Gemini CLI keeps it: characters that cannot be in a file name become `-`. */
export function sanitizeSkillName(name: string): string {
  return name.replace(/[:\\/<>*?"|]/g, '-');
}

/** The skill of that name, compared without case as Gemini CLI looks skills up. */
export function findSkill(skills: readonly SkillListing[], name: string): SkillListing | undefined {
  const wanted = name.toLowerCase();
  return skills.find((skill) => skill.name.toLowerCase() === wanted);
}

/** The answer to a name that is not one of the skills. */
export function unknownSkillMessage(name: string, skills: readonly SkillListing[]): string {
  const names = skills.map((skill) => skill.name).join(', ') || 'none';
  return `Skill "${name}" not found. Available skills are: ${names}`;
}

/** `activate_skill`'s description, naming the skills it can activate. */
export function activateSkillDescription(skills: readonly SkillListing[]): string {
  const names = skills.map((skill) => `'${skill.name}'`).join(', ');
  return (
    `Activates one of the available skills by name (${names}) and returns its instructions and the list of ` +
    'files it comes with, inside `<activated_skill>` tags. Call it when the task at hand matches a skill’s ' +
    'description; use a name exactly as listed under Available skills in the system prompt.'
  );
}

/** The system prompt's list of skills: name, description and where each lives. */
export function skillsListing(skills: readonly SkillListing[]): string {
  const items = skills.map(
    (skill) =>
      `  <skill>\n    <name>${skill.name}</name>\n    <description>${skill.description}</description>\n` +
      `    <location>${skill.location}</location>\n  </skill>`,
  );
  return `<available_skills>\n${items.join('\n')}\n</available_skills>`;
}

/** What the model gets on activation: the instructions, then the skill folder's files. */
export function activatedSkillText(name: string, body: string, resources: string): string {
  return (
    `<activated_skill name="${name}">\n<instructions>\n${body}\n</instructions>\n\n` +
    `<available_resources>\n${resources}\n</available_resources>\n</activated_skill>`
  );
}
