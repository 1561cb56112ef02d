import { z } from 'zod';
import {
  checkUnchangedSinceRead,
  decodeText,
  describeCount,
  looksBinary,
  notAFile,
  resolveForWrite,
} from './tool-helpers';
import { countOccurrences, toLf, unescapeOverEscaped } from './edit-text';
import { ToolError, type ToolDeps, type ActivityTool, type ToolResult } from './types';

const schema = z.object({
  file_path: z.string().min(1).describe('Path of the file to change, relative to the workspace root or absolute.'),
  instruction: z.string().optional().describe('A short statement of what the change does and why; shown to the user.'),
  old_string: z
    .string()
    .describe(
      'The exact text to replace, as it appears in the file (same whitespace and indentation, not escaped). ' +
        'Include enough surrounding lines to make it unique. Empty to create a new file.',
    ),
  new_string: z.string().describe('The exact text to put in its place. Write it out in full, without placeholders.'),
  allow_multiple: z
    .boolean()
    .optional()
    .describe('Optional: replace every occurrence of old_string. By default exactly one must exist.'),
  expected_replacements: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('Optional, older form of allow_multiple: the exact number of occurrences that must exist.'),
});

type Args = z.infer<typeof schema>;

export const replaceTool: ActivityTool<typeof schema> = {
  name: 'replace',
  kind: 'edit',
  editsFiles: true,
  reach: 'workspace',
  description:
    'Replaces an exact, literal piece of text in a file with new text. By default old_string must ' +
    'occur exactly once; set allow_multiple to replace every occurrence. Matching is exact (no ' +
    'fuzzy matching), so copy old_string from the file with enough context to make it unique. ' +
    'An empty old_string creates a new file holding new_string.',
  parameters: schema,
  async execute(args, deps) {
    const { workspace } = deps;
    const absolute = await resolveForWrite(workspace, args.file_path);
    const shown = workspace.relative(absolute);
    const info = await workspace.stat(absolute);
    if (!info) return createFile(args, deps, absolute, shown);
    if (!info.isFile) throw notAFile(shown, info);
    if (args.old_string === '') {
      throw new ToolError(
        'attempt_to_create_existing_file',
        `${shown} already exists, so it cannot be created with an empty old_string. ` +
          'To change it, give the exact text to replace in old_string; to replace all of it, use write_file.',
      );
    }
    const bytes = await workspace.readFile(absolute);
    if (looksBinary(bytes)) {
      throw new ToolError('execution_failed', `${shown} looks like a binary file; replace edits text files only.`);
    }
    checkUnchangedSinceRead(deps, shown, bytes);
    const original = decodeText(bytes);
    const lineEnding = original.includes('\r\n') ? '\r\n' : '\n';
    const updated = applyEdit(toLf(original), args, shown);
    const written = lineEnding === '\n' ? updated.text : updated.text.replace(/\n/g, '\r\n');
    await workspace.writeFile(absolute, written);
    const unescaped = updated.unescaped ? ' (after removing one level of escaping from old_string and new_string)' : '';
    return {
      ok: true,
      output: `Replaced ${describeCount(updated.count, 'occurrence')} of old_string in ${shown}${unescaped}.`,
      display: `Edited ${shown}`,
      known: { path: shown, fingerprint: deps.fingerprint(written) },
    };
  },
};

async function createFile(args: Args, deps: ToolDeps, absolute: string, shown: string): Promise<ToolResult> {
  if (args.old_string !== '') {
    throw new ToolError(
      'file_not_found',
      `File not found: ${shown}. Check the path; to create a new file, use write_file or call replace with an ` +
        `empty old_string.`,
    );
  }
  await deps.workspace.writeFile(absolute, args.new_string);
  const known = { path: shown, fingerprint: deps.fingerprint(args.new_string) };
  return { ok: true, output: `Created ${shown}.`, display: `Created ${shown}`, known };
}

interface Edit {
  text: string;
  count: number;
  /** old_string matched only once one level of escaping was removed (from new_string too). */
  unescaped: boolean;
}

/**
 * Counts and replaces on LF-normalised text; the caller restores the file's line ending. An
 * old_string found nowhere is tried once more unescaped (Gemini CLI's repair of over-escaped
 * strings), and taken so when that finds the occurrences the call asks for.
 */
function applyEdit(text: string, args: Args, shown: string): Edit {
  const expected = args.expected_replacements ?? (args.allow_multiple ? undefined : 1);
  let oldString = toLf(args.old_string);
  let newString = toLf(args.new_string);
  let count = countOccurrences(text, oldString);
  const unescapedOld = unescapeOverEscaped(oldString);
  const retry = count === 0 && unescapedOld !== oldString ? countOccurrences(text, unescapedOld) : 0;
  const unescaped = retry > 0 && (expected === undefined || retry === expected);
  if (unescaped) {
    [oldString, newString, count] = [unescapedOld, unescapeOverEscaped(newString), retry];
  }
  if (count === 0) {
    throw new ToolError(
      'edit_no_occurrence_found',
      `old_string was not found in ${shown} (0 occurrences). It must match the file exactly, including ` +
        'whitespace, indentation and line breaks. Read the file again with read_file and copy the text to replace.',
    );
  }
  if (expected !== undefined && count !== expected) {
    throw new ToolError('edit_expected_occurrence_mismatch', mismatchMessage(shown, expected, count, args));
  }
  if (oldString === newString) {
    throw new ToolError(
      'edit_no_change',
      `old_string and new_string are identical, so ${shown} was not changed. Give the new text in new_string.`,
    );
  }
  return { text: text.split(oldString).join(newString), count, unescaped };
}

function mismatchMessage(shown: string, expected: number, count: number, args: Args): string {
  const found = `Expected ${describeCount(expected, 'occurrence')} of old_string in ${shown} but found ${count}.`;
  if (args.expected_replacements !== undefined) {
    return (
      `${found} Set expected_replacements to ${count} to replace them all, or extend old_string so it ` +
      `matches only the places you mean.`
    );
  }
  return (
    `${found} Include more surrounding lines in old_string so it matches exactly one place, or set ` +
    `allow_multiple to true to replace all ${count}.`
  );
}
