import { z } from 'zod';
import { compileGlob } from './glob-match';
import { describeCount, joinPath, loadGitIgnore, placeName, resolveDirectory } from './tool-helpers';
import type { ToolDeps, ActivityTool } from './types';

/** Files examined per search, and paths returned to the model. */
const MAX_FILES_WALKED = 50_000;
const MAX_RESULTS = 1000;
/** Gemini CLI lists files changed within the last day first, newest first; older ones by path. */
const RECENT_MS = 24 * 60 * 60 * 1000;

const schema = z.object({
  pattern: z
    .string()
    .refine((value) => value.trim() !== '', 'must not be blank')
    .describe("Glob to match file paths against, relative to dir_path (e.g. '**/*.ts', 'src/*.{js,jsx}')."),
  dir_path: z.string().optional().describe('Optional: directory to search in. Defaults to the workspace root.'),
  case_sensitive: z.boolean().optional().describe('Optional: match letter case exactly. Defaults to false.'),
  respect_git_ignore: z
    .boolean()
    .optional()
    .describe('Optional: leave out files excluded by the workspace .gitignore. Defaults to true.'),
  respect_gemini_ignore: z
    .boolean()
    .optional()
    .describe('Optional: accepted for compatibility; .geminiignore files are not read.'),
});

type Args = z.infer<typeof schema>;

interface Match {
  path: string;
  mtimeMs: number;
}

export const globTool: ActivityTool<typeof schema> = {
  name: 'glob',
  kind: 'search',
  reach: 'workspace',
  description:
    'Finds files whose paths match a glob pattern (`**`, `*`, `?`, `{a,b}`, `[a-z]`), e.g. ' +
    "'src/**/*.ts'. Returns paths relative to the workspace root, files changed in the last 24 hours " +
    'first (newest first), then the rest by path. Skips .git, node_modules and .gitignore entries.',
  parameters: schema,
  async execute(args, deps) {
    const { workspace } = deps;
    const dir = await resolveDirectory(workspace, args.dir_path);
    const shown = placeName(workspace.relative(dir));
    const { matches, ignored, walkedAll } = await findMatches(args, deps, dir);
    const ignoredNote = ignored > 0 ? ` (${describeCount(ignored, 'file')} hidden by .gitignore)` : '';
    if (matches.length === 0) {
      const output = `No files match "${args.pattern}" in ${shown}${ignoredNote}.`;
      return { ok: true, output, display: 'No files found' };
    }
    const sorted = await sortByRecency(matches, deps);
    const listed = sorted.slice(0, MAX_RESULTS);
    const notes: string[] = [];
    if (listed.length < sorted.length) {
      notes.push(`Only the first ${MAX_RESULTS} of ${sorted.length} are listed; use a narrower pattern or dir_path.`);
    }
    if (!walkedAll) notes.push(`The search stopped after ${MAX_FILES_WALKED} files; some matches may be missing.`);
    const found = describeCount(sorted.length, 'file');
    const header = `Found ${found} matching "${args.pattern}" in ${shown}${ignoredNote}, recently modified first:`;
    return {
      ok: true,
      output: [header, ...listed, ...notes].join('\n'),
      display: `Found ${found}`,
    };
  },
};

async function findMatches(
  args: Args,
  deps: ToolDeps,
  dir: string,
): Promise<{ matches: string[]; ignored: number; walkedAll: boolean }> {
  const { workspace } = deps;
  const pattern = stripDirPrefix(args.pattern, dir);
  const test = compileGlob(pattern, { caseSensitive: args.case_sensitive ?? false });
  const gitIgnored = (args.respect_git_ignore ?? true) ? await loadGitIgnore(deps) : undefined;
  const files = await workspace.walk(dir, { limit: MAX_FILES_WALKED });
  const matches: string[] = [];
  let ignored = 0;
  for (const file of files) {
    if (!test(file) && file !== pattern) continue;
    const path = workspace.relative(joinPath(dir, file));
    if (gitIgnored?.(path, false)) ignored += 1;
    else matches.push(path);
  }
  return { matches, ignored, walkedAll: files.length < MAX_FILES_WALKED };
}

/** Patterns may repeat the search directory ("./x", or an absolute path under it). */
function stripDirPrefix(pattern: string, dir: string): string {
  const withSlash = dir.endsWith('/') ? dir : `${dir}/`;
  if (pattern.startsWith(withSlash)) return pattern.slice(withSlash.length);
  return pattern.replace(/^(\.\/)+/, '');
}

async function sortByRecency(paths: string[], deps: ToolDeps): Promise<string[]> {
  const { workspace } = deps;
  const now = Date.now();
  const withTimes: Match[] = await Promise.all(
    paths.map(async (path) => ({
      path,
      mtimeMs: (await workspace.stat(joinPath(workspace.root, path)))?.mtimeMs ?? 0,
    })),
  );
  const isRecent = (match: Match) => now - match.mtimeMs < RECENT_MS;
  withTimes.sort((a, b) => {
    const recentA = isRecent(a);
    const recentB = isRecent(b);
    if (recentA && recentB) return b.mtimeMs - a.mtimeMs;
    if (recentA !== recentB) return recentA ? -1 : 1;
    return a.path.localeCompare(b.path, 'en');
  });
  return withTimes.map((match) => match.path);
}
