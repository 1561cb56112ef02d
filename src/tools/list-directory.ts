import { z } from 'zod';
import { compileGlob } from './glob-match';
import { joinPath, loadGitIgnore, resolveDirectory } from './tool-helpers';
import type { DirEntry, ToolDeps, ActivityTool } from './types';

const schema = z.object({
  dir_path: z.string().describe('Directory to list, relative to the workspace root or absolute.'),
  ignore: z
    .array(z.string())
    .optional()
    .describe('Optional: glob patterns for entry names to leave out (e.g. ["*.log", "dist"]).'),
  file_filtering_options: z
    .object({
      respect_git_ignore: z
        .boolean()
        .optional()
        .describe('Optional: hide entries excluded by the workspace .gitignore. Defaults to true.'),
      respect_gemini_ignore: z
        .boolean()
        .optional()
        .describe('Optional: accepted for compatibility; .geminiignore files are not read.'),
    })
    .optional()
    .describe('Optional: which ignore files to honour.'),
});

type Args = z.infer<typeof schema>;

export const listDirectoryTool: ActivityTool<typeof schema> = {
  name: 'list_directory',
  kind: 'search',
  reach: 'workspace',
  description:
    'Lists the files and subdirectories directly inside a directory (not recursive): directories ' +
    'first, marked [DIR], then files, each group sorted by name. Entries matching the ignore globs ' +
    'or the workspace .gitignore are left out.',
  parameters: schema,
  async execute(args, deps) {
    const { workspace } = deps;
    const dir = await resolveDirectory(workspace, args.dir_path);
    const shown = workspace.relative(dir);
    const entries = await workspace.readdir(dir);
    const hidden = await hiddenPredicate(args, deps, dir);
    const visible = entries.filter((entry) => !hidden(entry)).sort(compareEntries);
    const hiddenCount = entries.length - visible.length;
    const note = hiddenCount > 0 ? `\n(${hiddenCount} entries hidden by ignore rules)` : '';
    if (visible.length === 0) {
      return { ok: true, output: `Directory ${shown} is empty.${note}`, display: 'Empty directory' };
    }
    const lines = visible.map((entry) => (entry.isDirectory ? `[DIR] ${entry.name}` : entry.name));
    return {
      ok: true,
      output: `Directory listing for ${shown}:\n${lines.join('\n')}${note}`,
      display: `Listed ${visible.length} entries`,
    };
  },
};

async function hiddenPredicate(args: Args, deps: ToolDeps, dir: string): Promise<(entry: DirEntry) => boolean> {
  const ignores = (args.ignore ?? []).filter((pattern) => pattern !== '').map((pattern) => compileGlob(pattern));
  const respectGitIgnore = args.file_filtering_options?.respect_git_ignore ?? true;
  const gitIgnored = respectGitIgnore ? await loadGitIgnore(deps) : undefined;
  return (entry) => {
    if (ignores.some((matches) => matches(entry.name))) return true;
    if (!respectGitIgnore) return false;
    if (entry.name === '.git') return true;
    const relative = deps.workspace.relative(joinPath(dir, entry.name));
    return gitIgnored?.(relative, entry.isDirectory) ?? false;
  };
}

function compareEntries(a: DirEntry, b: DirEntry): number {
  if (a.isDirectory !== b.isDirectory) return a.isDirectory ? -1 : 1;
  return a.name.localeCompare(b.name, 'en');
}
