import { isCancellation } from '@temporalio/workflow';
import type { PromptActivities } from '../state/activity-options';
import { emit } from '../run/records';
import type { PromptRun } from '../run/prompt-run';
import { isPatched, PATCHES } from '../patches';
import { setMemoryRef, setSkills } from '../run/context-part';

/**
 * Reads the project context (GEMINI.md files) and finds the Agent Skills once, at the start of a new
 * prompt, in an activity: replay reads the recorded result, never the files. A session's prompts each
 * do this, so an edit between two messages is seen. The reference and the skills are carried across
 * continue-as-new in `context`.
 */
export async function loadProjectMemory(run: PromptRun): Promise<void> {
  const { state, acts } = run;
  if (!isPatched(PATCHES.projectMemory)) return;
  let loaded: Awaited<ReturnType<PromptActivities['loadMemory']>>;
  try {
    loaded = await acts.loadMemory({
      workspace: state.input.workspace,
      fileNames: state.input.contextFileNames,
      trusted: state.input.workspaceTrusted === true,
    });
  } catch (err) {
    // Without its context the prompt still runs: the failure is told, not fatal.
    if (isCancellation(err)) throw err;
    emit(state, { type: 'warning', message: `context files could not be read: ${describe(err)}` });
    return;
  }
  for (const warning of loaded.warnings) emit(state, { type: 'warning', message: `context files: ${warning}` });
  for (const warning of loaded.skillWarnings ?? []) emit(state, { type: 'warning', message: `skills: ${warning}` });
  if (loaded.skills) setSkills(state, loaded.skills);
  if (!loaded.memoryRef) return;
  setMemoryRef(state, loaded.memoryRef);
  emit(state, { type: 'memory_loaded', files: loaded.files, chars: loaded.chars });
}

function describe(err: unknown): string {
  const cause = (err as { cause?: { message?: string } }).cause?.message;
  return cause ?? (err as Error).message;
}
