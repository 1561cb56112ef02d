import { parseAtPaths } from '../../tools/at-paths';
import type { PromptRun } from '../run/prompt-run';
import { emit } from '../run/records';
import { isPatched, PATCHES } from '../patches';

/**
 * Gemini CLI's `@path` handling: the files a new prompt references are read by an activity and their
 * text joins the prompt's message, by store reference. Only a prompt's first run does this (a resumed run
 * carries its message), and only a prompt with references schedules the activity.
 */
export async function addReferencedFiles(run: PromptRun): Promise<void> {
  const { state, acts } = run;
  const paths = parseAtPaths(state.input.prompt);
  if (paths.length === 0 || !isPatched(PATCHES.atPaths)) return;
  const read = await acts.expandAtPaths({ workspace: state.input.workspace, paths });
  if (read.skipped.length > 0)
    emit(state, { type: 'warning', message: `Referenced files left out: ${read.skipped.join(', ')}.` });
  if (!read.textRef) return;
  emit(state, { type: 'referenced_files', files: read.files });
  run.addParts({ kind: 'text', text: read.preview, textRef: read.textRef });
}
