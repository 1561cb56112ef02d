import * as path from 'node:path';
import type { Command } from 'commander';
import type { Config } from '../config';
import { realDirectory } from '../config/trusted-folders';
import { isWorkspaceTrusted } from '../config/workspace';
import { discoverSkills, type SkillDiscovery } from '../activities/skills/discover';
import { EXIT, InputError } from './exit-codes';
import type { Io } from './output';

type Setup = () => { config: Config };

/** `skills list [-w DIR] [--json]`: the skills a prompt in DIR would be offered, and those it would skip. */
export function addSkills(program: Command, setup: Setup, io: Io): void {
  program
    .command('skills')
    .description('the Agent Skills (SKILL.md folders) prompts are offered')
    .command('list')
    .option('-w, --workspace <dir>', 'the workspace (default: the current directory)')
    .option('--trust-workspace', "list the workspace's own skills as offered even if it is not trusted")
    .option('--json', 'one JSON object: skills and skipped')
    .description('list the skills a prompt would be offered, where each lives, and the ones skipped and why')
    .action(async (o: { workspace?: string; trustWorkspace?: boolean; json?: boolean }) => {
      process.exitCode = await listSkills(setup().config, o.workspace ?? process.cwd(), o, io);
    });
}

async function listSkills(
  config: Config,
  dir: string,
  options: { trustWorkspace?: boolean; json?: boolean },
  io: Io,
): Promise<number> {
  const workspace = await realDirectory(dir);
  if (!workspace) throw new InputError(`${path.resolve(dir)} is not a directory`);
  const trusted = await isWorkspaceTrusted(config, workspace, options.trustWorkspace);
  const found = await discoverSkills({ workspace, home: config.home, trusted });
  io.stdout.write(options.json ? `${JSON.stringify(found, null, 2)}\n` : describe(found, config.home));
  return EXIT.ok;
}

function describe(found: SkillDiscovery, home: string): string {
  const lines: string[] = [];
  if (found.skills.length === 0)
    lines.push(`No skills found (looked in ${path.join(home, 'skills')} and the workspace).`);
  else lines.push(`Skills (${found.skills.length}):`);
  for (const skill of found.skills) {
    lines.push(`  ${skill.name} (${skill.scope}) ${skill.location}`, `    ${skill.description}`);
  }
  if (found.skipped.length > 0) lines.push('', `Skipped (${found.skipped.length}):`);
  for (const skipped of found.skipped) {
    lines.push(`  ${skipped.name ? `${skipped.name} ` : ''}${skipped.location}`, `    ${skipped.reason}`);
  }
  return `${lines.join('\n')}\n`;
}
