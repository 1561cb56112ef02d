import { z } from 'zod';
import { compileNameOrPathGlob } from './glob-match';
import {
  MAX_FILE_BYTES,
  decodeText,
  describeCount,
  joinPath,
  loadGitIgnore,
  looksBinary,
  placeName,
  resolveDirectory,
} from './tool-helpers';
import { ToolError, type LineMatcher, type ToolDeps, type ActivityTool } from './types';

/** Gemini CLI's defaults: 100 matches, 30 s per search. */
const DEFAULT_TOTAL_MAX_MATCHES = 100;
const SEARCH_TIME_LIMIT_MS = 30_000;
/**
 * Matching one file (20 MB at most) takes well under a second unless the pattern backtracks without
 * end. Below the 5 s limit of a read tool's local activity, so its first attempt reports the timeout.
 */
export const DEFAULT_GREP_TIMEOUT_MS = 4_000;
const MAX_FILES_WALKED = 50_000;
/** Matched lines longer than this are cut (minified files would flood the output). */
const MAX_LINE_CHARS = 500;

const regexSource = z.string().superRefine((value, ctx) => {
  const problem = regexError(value);
  if (problem) ctx.addIssue({ code: 'custom', message: `not a valid JavaScript regular expression (${problem})` });
});

const schema = z.object({
  pattern: regexSource
    .refine((value) => value !== '', 'must not be empty')
    .describe("JavaScript regular expression to look for in each line (e.g. 'function\\s+load', 'TODO|FIXME')."),
  dir_path: z.string().optional().describe('Optional: directory to search in. Defaults to the workspace root.'),
  include_pattern: z
    .string()
    .optional()
    .describe("Optional: glob for the files to search (e.g. '*.ts', '*.{js,jsx}', 'src/**'). Defaults to all files."),
  include: z.string().optional().describe('Optional, older name of include_pattern.'),
  exclude_pattern: regexSource
    .optional()
    .describe('Optional: regular expression; lines that also match it are left out.'),
  names_only: z.boolean().optional().describe('Optional: return only the paths of files with a match.'),
  case_sensitive: z.boolean().optional().describe('Optional: match letter case exactly. Defaults to false.'),
  max_matches_per_file: z.number().int().min(1).optional().describe('Optional: at most this many matches per file.'),
  total_max_matches: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`Optional: at most this many matches in all. Defaults to ${DEFAULT_TOTAL_MAX_MATCHES}.`),
});

type Args = z.infer<typeof schema>;

interface FileMatches {
  path: string;
  lines: string[];
}

interface Search {
  files: FileMatches[];
  total: number;
  stoppedBy?: string;
}

export const grepSearchTool: ActivityTool<typeof schema> = {
  name: 'grep_search',
  kind: 'search',
  reach: 'workspace',
  description:
    'Searches file contents for a regular expression (JavaScript syntax, case-insensitive unless ' +
    'case_sensitive is set) and returns matching lines grouped by file, as `L<line>: text`. ' +
    'Skips binary files, .git, node_modules and .gitignore entries. At most ' +
    `${DEFAULT_TOTAL_MAX_MATCHES} matches unless total_max_matches says otherwise.`,
  parameters: schema,
  async execute(args, deps) {
    const dir = await resolveDirectory(deps.workspace, args.dir_path);
    const flags = args.case_sensitive ? '' : 'i';
    compile('pattern', args.pattern, flags);
    if (args.exclude_pattern !== undefined) compile('exclude_pattern', args.exclude_pattern, flags);
    const matcher = deps.lineMatcher(
      { pattern: args.pattern, exclude: args.exclude_pattern, flags },
      deps.limits?.grepTimeoutMs ?? DEFAULT_GREP_TIMEOUT_MS,
    );
    const search = await searchFiles(args, deps, dir, matcher).finally(() => matcher.close());
    const output = render(args, placeName(deps.workspace.relative(dir)), search);
    return { ok: true, output, display: `Found ${describeCount(search.total, 'match', 'matches')}` };
  },
};

function regexError(source: string): string | undefined {
  try {
    new RegExp(source);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** Compiling is safe in-process (no matching), and tells the model what is wrong with a pattern. */
function compile(parameter: string, source: string, flags: string): void {
  const problem = regexError(source);
  if (problem) {
    throw new ToolError('invalid_tool_params', `${parameter} is not a valid JavaScript regular expression: ${problem}`);
  }
  new RegExp(source, flags);
}

async function searchFiles(args: Args, deps: ToolDeps, dir: string, matcher: LineMatcher): Promise<Search> {
  const { workspace } = deps;
  const include = args.include_pattern ?? args.include;
  const included = include ? compileNameOrPathGlob(include) : () => true;
  const gitIgnored = await loadGitIgnore(deps);
  const totalMax = args.total_max_matches ?? DEFAULT_TOTAL_MAX_MATCHES;
  const perFileMax = args.max_matches_per_file ?? Number.POSITIVE_INFINITY;
  const deadline = Date.now() + SEARCH_TIME_LIMIT_MS;
  const search: Search = { files: [], total: 0 };
  const walked = await workspace.walk(dir, { limit: MAX_FILES_WALKED });
  if (walked.length >= MAX_FILES_WALKED) search.stoppedBy = `only the first ${MAX_FILES_WALKED} files were searched`;
  for (const file of walked) {
    const absolute = joinPath(dir, file);
    const path = workspace.relative(absolute);
    if (!included(file) || gitIgnored?.(path, false)) continue;
    if (deps.signal.aborted || Date.now() > deadline) {
      search.stoppedBy = `the search was stopped after ${SEARCH_TIME_LIMIT_MS / 1000} seconds`;
      break;
    }
    const lines = await matchFile(deps, absolute, matcher, Math.min(perFileMax, totalMax - search.total));
    if (lines.length === 0) continue;
    search.files.push({ path, lines });
    search.total += lines.length;
    if (search.total >= totalMax) {
      search.stoppedBy = `the limit of ${totalMax} matches was reached (total_max_matches)`;
      break;
    }
  }
  return search;
}

async function matchFile(deps: ToolDeps, absolute: string, matcher: LineMatcher, max: number): Promise<string[]> {
  const info = await deps.workspace.stat(absolute);
  if (!info?.isFile || info.size > MAX_FILE_BYTES) return [];
  // A file removed or swapped for a link since the walk is skipped, as grep skips unreadable files.
  const bytes = await deps.workspace.readFile(absolute).catch((error: unknown) => {
    if (error instanceof ToolError) return undefined;
    throw error;
  });
  if (!bytes || looksBinary(bytes)) return [];
  const text = decodeText(bytes);
  const found = await matcher.match(text, max);
  if (found.length === 0) return [];
  const lines = text.split('\n');
  return found.map((i) => {
    const line = lines[i].endsWith('\r') ? lines[i].slice(0, -1) : lines[i];
    const shown = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}... [line cut]` : line;
    return `L${i + 1}: ${shown}`;
  });
}

function render(args: Args, shown: string, search: Search): string {
  const include = args.include_pattern ?? args.include;
  const where = `in ${shown}${include ? ` (files matching "${include}")` : ''}`;
  const stopped = search.stoppedBy
    ? `\nResults may be incomplete: ${search.stoppedBy}. Narrow the search with dir_path or include_pattern.`
    : '';
  if (search.total === 0) return `No matches for pattern "${args.pattern}" ${where}.${stopped}`;
  if (args.names_only) {
    const header = `${describeCount(search.files.length, 'file')} with matches for pattern "${args.pattern}" ${where}:`;
    return `${header}\n${search.files.map((file) => file.path).join('\n')}${stopped}`;
  }
  const header = `Found ${describeCount(search.total, 'match', 'matches')} for pattern "${args.pattern}" ${where}:`;
  const blocks = search.files.map((file) => `File: ${file.path}\n${file.lines.join('\n')}`);
  return `${header}\n---\n${blocks.join('\n---\n')}\n---${stopped}`;
}
