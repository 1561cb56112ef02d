import { Context } from '@temporalio/activity';
import { sideCallConfig } from '../core/models';
import { z } from 'zod';
import { externalizeLargeStrings, resolveBlobMarkers } from '../store/blobs';
import type { TranscriptStore } from '../store/types';
import type { JsonModelSeam } from '../model/seam';
import { countOccurrences, keepsReplacement, toLf } from '../tools/edit-text';
import { decodeText, looksBinary } from '../tools/tool-helpers';
import { generateJsonAnswer, throwIfCancelledOrRetrying } from './json-answer';
import { createWorkspace } from './tool-deps';

export interface FixEditDeps {
  models: JsonModelSeam;
  store: TranscriptStore;
}

export interface FixEditInput {
  workspace: string;
  /** The failed `replace` call's arguments as the workflow holds them (blob markers resolved here). */
  args: Record<string, unknown>;
  /** What the tool answered. */
  error: string;
  model: string;
}

export interface FixEditResult {
  /**
   * Corrected strings whose old_string occurs exactly once in the file (long ones as blob markers).
   * `changesReplacement`: the proposed new_string says something else than the call's, beyond
   * indentation and whitespace (see `keepsReplacement`), so it is not the edit that was approved.
   */
  fix?: { old_string: unknown; new_string: unknown; explanation: string; changesReplacement?: true };
  /** The fixer judged that the file already holds the change: its explanation. */
  noChange?: string;
  /** Why no correction came out (for the log). */
  reason?: string;
}

/** The answer's JSON Schema; the field names are Gemini CLI's edit fixer protocol. */
const FIX_JSON_SCHEMA = {
  type: 'object',
  properties: {
    explanation: { type: 'string', description: 'One or two sentences: why old_string did not match, and the fix.' },
    search: { type: 'string', description: 'Text copied exactly from the file, occurring there exactly once.' },
    replace: { type: 'string', description: 'The text to put in place of search, carrying out the intended change.' },
    noChangesRequired: { type: 'boolean', description: 'True if the file already holds the intended change.' },
  },
  required: ['search', 'replace', 'explanation'],
} as const;

const answerSchema = z.object({
  // Left out when the answer is "no change required"; an empty search matches nothing.
  search: z.string().catch(''),
  replace: z.string().catch(''),
  explanation: z.string().catch(''),
  noChangesRequired: z.boolean().optional().catch(undefined),
});

const argsSchema = z.object({
  file_path: z.string(),
  old_string: z.string(),
  new_string: z.string(),
  instruction: z.string().optional().catch(undefined),
});

/**
 * Gemini CLI's edit fixer: one model call, after a `replace` found no occurrence of its
 * old_string, that proposes corrected strings. A proposal counts only if its old_string occurs in
 * the file exactly once; the workflow then runs `replace` with it, unless its new_string changes
 * what the call asked for (the answer is model output written after reading the file's text).
 * Every failure (an API error, no usable answer, an unreadable file) is a result without `fix`:
 * the original error stands. Only cancellation is thrown. The file is read, never written.
 */
export async function fixEdit(deps: FixEditDeps, input: FixEditInput): Promise<FixEditResult> {
  try {
    const args = argsSchema.safeParse(await resolveBlobMarkers(input.args, deps.store));
    if (!args.success) return { reason: 'the call has no old_string and new_string to correct' };
    const content = await readText(input.workspace, args.data.file_path);
    if (content === undefined) return { reason: 'the file is not a readable text file' };
    const request = {
      model: input.model,
      contents: [{ role: 'user', parts: [{ text: fixPrompt(args.data, input.error, content) }] }],
      config: { ...sideCallConfig(input.model), responseJsonSchema: FIX_JSON_SCHEMA },
    };
    const answer = answerSchema.safeParse(await generateJsonAnswer(deps.models, request, 1));
    if (!answer.success) return { reason: 'the fixer gave no usable answer' };
    const { search, replace, explanation, noChangesRequired } = answer.data;
    if (noChangesRequired) return { noChange: explanation || 'the file already holds the change' };
    const count = countOccurrences(content, toLf(search));
    if (count !== 1) return { reason: `the proposed old_string occurs ${count} times, not once` };
    if (search === replace) return { reason: 'the proposed old_string and new_string are identical' };
    const strings = await externalizeLargeStrings({ old_string: search, new_string: replace }, deps.store);
    const changed = keepsReplacement(args.data.new_string, replace) ? {} : { changesReplacement: true as const };
    return { fix: { ...strings, explanation, ...changed } };
  } catch (err) {
    throwIfCancelledOrRetrying(err);
    const message = err instanceof Error ? err.message : String(err);
    Context.current().log.warn('edit fixer failed; the original error stands', { error: message });
    return { reason: `the fixer failed: ${message}` };
  }
}

async function readText(root: string, filePath: string): Promise<string | undefined> {
  const workspace = await createWorkspace(root);
  const absolute = await workspace.resolve(filePath);
  if (!(await workspace.stat(absolute))?.isFile) return undefined;
  const bytes = await workspace.readFile(absolute);
  return looksBinary(bytes) ? undefined : toLf(decodeText(bytes));
}

function fixPrompt(args: z.infer<typeof argsSchema>, error: string, content: string): string {
  const fence = (label: string, text: string) => `${label}:\n<<<\n${text}\n>>>`;
  return [
    'An edit to a file failed. The edit replaces an exact piece of text (old_string) with new text ' +
      '(new_string), but old_string does not occur in the file exactly as written: its whitespace, ' +
      'indentation, escaping or a few characters differ from the file.',
    'Find the one passage of the file that old_string was meant to match. Answer with:',
    '- search: that passage copied character for character from the file; it must occur in the file exactly once.',
    '- replace: new_string adjusted in the same way, so that it makes the intended change to that passage.',
    '- noChangesRequired: true only if the file already holds the intended change.',
    '- explanation: what differed.',
    'Do not make any change the edit did not ask for.',
    ...(args.instruction ? [fence('What the edit is for', args.instruction)] : []),
    fence('The error', error),
    fence('old_string', args.old_string),
    fence('new_string', args.new_string),
    fence('The file as it is now', content),
  ].join('\n\n');
}
