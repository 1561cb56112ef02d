import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { isInside } from '../../config/trusted-folders';
import { MAX_SKILLS, type SkillListing } from '../../core/skills';
import { readSkillFile } from './read';

/** Where skills are looked for. */
export interface SkillSources {
  workspace: string;
  /** durable-agent's home (`<home>/skills`); absent: no user-level skills. */
  home?: string;
  /** Whether the workspace's own skills may be used (folder trust). */
  trusted: boolean;
}

/** A `SKILL.md` that is not offered, and why. */
export interface SkippedSkill {
  location: string;
  name?: string;
  reason: string;
}

export interface SkillDiscovery {
  skills: SkillListing[];
  skipped: SkippedSkill[];
}

/**
 * The workspace's skill folders, lowest precedence first: Gemini CLI's `.gemini/skills` and its
 * `.agents/skills` alias, then durable-agent's own. A skill of the same name in a later folder wins.
 */
export const WORKSPACE_SKILL_DIRS = ['.gemini/skills', '.agents/skills', '.durable-agent/skills'];

/**
 * The skills a prompt in `workspace` is offered, as Gemini CLI finds them: in each folder, a `SKILL.md`
 * at its top or one level down (`<folder>/<skill>/SKILL.md`); the user's `<home>/skills` first, then
 * the workspace's folders, only when the workspace is trusted. A later skill of the same name replaces
 * an earlier one. A file whose real path leaves its root (the user's skills folder; the workspace) is
 * refused, so a link in a cloned repository cannot hand `~/.ssh/config` to the model as instructions.
 */
export async function discoverSkills(sources: SkillSources): Promise<SkillDiscovery> {
  const found: SkillListing[] = [];
  const skipped: SkippedSkill[] = [];
  const home = sources.home && (await realDir(path.join(sources.home, 'skills')));
  if (home) await scan(home, home, 'user', found, skipped);
  const workspace = await fs.realpath(sources.workspace);
  for (const dir of WORKSPACE_SKILL_DIRS) {
    const folder = path.join(workspace, dir);
    if (!sources.trusted) {
      const reason = 'the workspace is not trusted (durable-agent trust)';
      for (const file of await candidates(folder)) skipped.push({ location: file, reason });
    } else await scan(folder, workspace, 'workspace', found, skipped);
  }
  return { skills: withoutOverridden(found, skipped).slice(0, MAX_SKILLS), skipped: [...skipped, ...overLimit(found)] };
}

async function scan(
  folder: string,
  root: string,
  scope: SkillListing['scope'],
  found: SkillListing[],
  skipped: SkippedSkill[],
): Promise<void> {
  for (const file of await candidates(folder)) {
    const real = await fs.realpath(file).catch(() => undefined);
    if (!real) continue;
    if (!isInside(real, root)) {
      skipped.push({ location: file, reason: `it links to ${real}, outside ${root}` });
      continue;
    }
    const read = await readSkillFile(real);
    if (read.ok) found.push({ name: read.name, description: read.description, location: real, scope });
    else skipped.push({ location: real, reason: read.reason });
  }
}

/** `SKILL.md` at the folder's top, then in each subfolder (by name), skipping `.git` and `node_modules`. */
async function candidates(folder: string): Promise<string[]> {
  const entries = await fs.readdir(folder, { withFileTypes: true }).catch(() => []);
  const files = entries.some((e) => e.name === 'SKILL.md') ? [path.join(folder, 'SKILL.md')] : [];
  const subfolders = entries
    .filter((e) => (e.isDirectory() || e.isSymbolicLink()) && e.name !== '.git' && e.name !== 'node_modules')
    .map((e) => e.name)
    .sort();
  for (const name of subfolders) {
    const file = path.join(folder, name, 'SKILL.md');
    if (
      await fs.lstat(file).then(
        () => true,
        () => false,
      )
    )
      files.push(file);
  }
  return files;
}

/** One skill per name (compared without case), the last found; the ones it replaced are skipped. */
function withoutOverridden(found: SkillListing[], skipped: SkippedSkill[]): SkillListing[] {
  const byName = new Map<string, SkillListing>();
  for (const skill of found) {
    const key = skill.name.toLowerCase();
    const earlier = byName.get(key);
    if (earlier)
      skipped.push({ location: earlier.location, name: earlier.name, reason: `overridden by ${skill.location}` });
    byName.delete(key);
    byName.set(key, skill);
  }
  found.splice(0, found.length, ...byName.values());
  return found;
}

function overLimit(skills: SkillListing[]): SkippedSkill[] {
  return skills
    .slice(MAX_SKILLS)
    .map((skill) => ({ location: skill.location, name: skill.name, reason: `over the limit of ${MAX_SKILLS} skills` }));
}

async function realDir(dir: string): Promise<string | undefined> {
  const real = await fs.realpath(dir).catch(() => undefined);
  return real && (await fs.stat(real)).isDirectory() ? real : undefined;
}

/** Warning lines for the skipped skills (an override is said once, as Gemini CLI warns of it). */
export function skillWarnings(skipped: readonly SkippedSkill[]): string[] {
  return skipped.map((s) =>
    s.name ? `skill "${s.name}" in ${s.location} is ${s.reason}` : `${s.location}: skipped: ${s.reason}`,
  );
}
