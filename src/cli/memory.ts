import * as path from 'node:path';
import type { Command } from 'commander';
import type { Config } from '../config';
import { atConfigEdge } from '../config/errors';
import { loadContextFileNames } from '../config/settings';
import { realDirectory } from '../config/trusted-folders';
import { configSources, isWorkspaceTrusted } from '../config/workspace';
import { DEFAULT_CONTEXT_FILE, loadMemory } from '../activities/memory/load';
import { EXIT, InputError } from './exit-codes';
import type { Io } from './output';

type Setup = () => { config: Config };

/** `memory show [-w DIR]`: what a prompt in DIR would load as project context, and from which files. */
export function addMemory(program: Command, setup: Setup, io: Io): void {
  program
    .command('memory')
    .description('the project context (GEMINI.md files) every prompt loads')
    .command('show')
    .option('-w, --workspace <dir>', 'the workspace (default: the current directory)')
    .option('--trust-workspace', "read the workspace's .durable-agent/settings.json even if it is not trusted")
    .description('print the context a prompt would load, and the files it comes from')
    .action(async (o: { workspace?: string; trustWorkspace?: boolean }) => {
      process.exitCode = await showMemory(setup().config, o.workspace ?? process.cwd(), o.trustWorkspace, io);
    });
}

async function showMemory(config: Config, dir: string, trustFlag: boolean | undefined, io: Io): Promise<number> {
  const workspace = await realDirectory(dir);
  if (!workspace) throw new InputError(`${path.resolve(dir)} is not a directory`);
  const trusted = await isWorkspaceTrusted(config, workspace, trustFlag);
  const settings = configSources(config, workspace, trusted).settings;
  const fileNames = (await atConfigEdge(() => loadContextFileNames(settings))) ?? [DEFAULT_CONTEXT_FILE];
  const loaded = await loadMemory({ workspace, home: config.home, fileNames });
  for (const warning of loaded.warnings) io.stderr.write(`[WARNING] context files: ${warning}\n`);
  if (loaded.files.length === 0) {
    io.stdout.write(`No context files found (looked for ${fileNames.join(', ')}).\n`);
    return EXIT.ok;
  }
  const count = `${loaded.files.length} file${loaded.files.length === 1 ? '' : 's'}, ${loaded.text.length} characters`;
  io.stdout.write(`Context files (${count}):\n${loaded.files.map((f) => `  ${f}\n`).join('')}\n${loaded.text}\n`);
  return EXIT.ok;
}
