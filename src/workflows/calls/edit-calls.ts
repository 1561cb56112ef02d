import { isCancellation, log } from '@temporalio/workflow';
import type { CallRecord } from '../api';
import type { ToolOutcome } from '../../core/types';
import { findTool } from '../../tools/index';
import type { RunToolInput } from '../../activities/run-tool';
import type { PromptActivities } from '../state/activity-options';
import type { PromptState } from '../state/prompt-state';
import { emit, recordToolUsage, recordUtilityUsage } from '../run/records';
import { isPatched, PATCHES } from '../patches';
import { setKnownFiles } from '../run/context-part';
import { setCallStatus } from '../run/book';

/** The activities a tool call may need: the tool (or an MCP server's), and the edit fixer after a failed `replace`. */
export type ToolActs = Pick<PromptActivities, 'runTool' | 'fixEdit' | 'callMcpTool' | 'activateSkill'>;

/** Files whose fingerprints a prompt keeps; the oldest seen is forgotten first (its edits go unchecked). */
export const MAX_KNOWN_FILES = 100;
/** Gemini CLI leaves these to the model: a fixer's guess in structured data does more harm than good. */
const UNFIXED_EXTENSIONS = ['.json', '.ipynb', '.jsonc', '.json5'];
const FIX_SUFFIX = '~fix';
/** Characters of the fixer's explanation passed on to the model. */
const MAX_EXPLANATION = 500;

/**
 * Runs one call in the `runTool` activity. An edit is given what the model last saw of its file,
 * so it can refuse a file changed on disk since; what the call shows the model of a file is
 * remembered. A `replace` that found no occurrence gets one edit fixer call (behind `patched`,
 * since it adds activities to the histories of such calls).
 */
export async function runActivityCall(state: PromptState, record: CallRecord, acts: ToolActs): Promise<ToolOutcome> {
  setCallStatus(record, 'executing');
  const knownFiles = knownFilesFor(state, record);
  const input: RunToolInput = {
    callId: record.callId,
    name: record.name,
    args: record.args,
    workspace: state.input.workspace,
    shellTimeoutMs: state.settings.shellTimeoutMs,
    ...(knownFiles ? { knownFiles } : {}),
    ...(state.input.web ? { web: state.input.web } : {}),
  };
  let outcome = recordToolUsage(state, await acts.runTool(input));
  if (fixable(state, record, outcome) && isPatched(PATCHES.editFixer))
    outcome = await fixFailedEdit(state, input, outcome, acts);
  remember(state, outcome);
  return outcome;
}

/**
 * The remembered fingerprints an edit may need: those of files named like its target. The
 * workflow cannot resolve paths (symlinks, `..`), so the activity picks the entry of the resolved path.
 */
function knownFilesFor(state: PromptState, record: CallRecord): Record<string, string> | undefined {
  const known = state.context.knownFiles;
  const target = record.args.file_path;
  if (!known || !findTool(record.name)?.editsFiles || typeof target !== 'string') return undefined;
  const name = baseName(target);
  const entries = Object.entries(known).filter(([path]) => baseName(path) === name);
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

function remember(state: PromptState, outcome: ToolOutcome): void {
  if (!outcome.ok || !outcome.known) return;
  const known = { ...state.context.knownFiles };
  delete known[outcome.known.path];
  known[outcome.known.path] = outcome.known.fingerprint;
  const paths = Object.keys(known);
  for (const path of paths.slice(0, Math.max(0, paths.length - MAX_KNOWN_FILES))) delete known[path];
  setKnownFiles(state, known);
}

function fixable(state: PromptState, record: CallRecord, outcome: ToolOutcome): boolean {
  const target = record.args.file_path;
  return (
    state.input.editFixer !== false &&
    record.name === 'replace' &&
    outcome.errorKind === 'edit_no_occurrence_found' &&
    typeof target === 'string' &&
    !UNFIXED_EXTENSIONS.some((extension) => target.toLowerCase().endsWith(extension))
  );
}

/**
 * Asks the edit fixer for corrected strings and, if it found a passage that occurs exactly once,
 * runs `replace` with them as a call of its own (`<call>~fix`, journaled like any edit). Its
 * success answers the model's call; any failure leaves the original error, as in Gemini CLI. A
 * correction whose new_string changes the edit's meaning is not what was approved (or what the
 * policy allowed): outside yolo it is refused, never run. Answers recorded before the fixer
 * reported that have no `changesReplacement`, so their histories replay as they ran.
 */
async function fixFailedEdit(
  state: PromptState,
  input: RunToolInput,
  failed: ToolOutcome,
  acts: ToolActs,
): Promise<ToolOutcome> {
  let answer: Awaited<ReturnType<ToolActs['fixEdit']>>;
  try {
    const request = { workspace: input.workspace, args: input.args, error: failed.preview };
    answer = await acts.fixEdit({ ...request, model: state.settings.editFixerModel });
  } catch (err) {
    if (isCancellation(err)) throw err;
    log.warn('edit fixer call failed; the edit error stands', { callId: input.callId, error: String(err) });
    return failed;
  }
  recordUtilityUsage(state, answer);
  if (answer.noChange !== undefined) return noChangeOutcome(failed, answer.noChange);
  if (!answer.fix) return failed;
  if (answer.fix.changesReplacement && state.progress.mode !== 'yolo') return unapprovedFix(state, failed);
  const { old_string, new_string, explanation } = answer.fix;
  const args: Record<string, unknown> = { ...input.args, old_string, new_string, allow_multiple: false };
  delete args.expected_replacements;
  const fixed = await acts.runTool({ ...input, callId: `${input.callId}${FIX_SUFFIX}`, args });
  if (!fixed.ok) return failed;
  emit(state, { type: 'warning', message: `replace ${input.callId}: old_string corrected (${clip(explanation)})` });
  return correctedOutcome(failed, fixed, explanation);
}

/** The fixed edit's success, told to the model with what was corrected, so its picture of the file stays true. */
function correctedOutcome(failed: ToolOutcome, fixed: ToolOutcome, explanation: string): ToolOutcome {
  const why = clip(explanation);
  const text =
    `${fixed.preview} old_string did not occur exactly as given, so the edit fixer matched it to the file's ` +
    `text${why ? ` (${why})` : ''}; read the file again before editing near this change.`;
  const { callId, name } = failed;
  return { callId, name, ok: true, response: { output: text }, preview: text, known: fixed.known };
}

function unapprovedFix(state: PromptState, failed: ToolOutcome): ToolOutcome {
  emit(state, {
    type: 'warning',
    message: `replace ${failed.callId}: the edit fixer's correction changed new_string, so it was not applied`,
  });
  const text =
    `${failed.preview} The edit fixer found a matching passage, but its correction also changed new_string ` +
    'beyond indentation and whitespace, which was not approved, so nothing was changed.';
  const { callId, name, errorKind } = failed;
  return { callId, name, ok: false, response: { error: text }, preview: text, errorKind };
}

function noChangeOutcome(failed: ToolOutcome, explanation: string): ToolOutcome {
  const text =
    `No change was made: the file appears to hold the intended change already (${clip(explanation)}). ` +
    'Read it with read_file if you are not sure.';
  const { callId, name } = failed;
  return {
    callId,
    name,
    ok: false,
    response: { error: text },
    preview: text,
    errorKind: 'edit_no_change_llm_judgement',
  };
}

function clip(explanation: string): string {
  return explanation.length > MAX_EXPLANATION ? `${explanation.slice(0, MAX_EXPLANATION)}…` : explanation;
}

function baseName(path: string): string {
  const parts = path.split(/[\\/]/).filter((part) => part !== '' && part !== '.');
  return parts[parts.length - 1] ?? '';
}
