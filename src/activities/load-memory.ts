import type { TranscriptStore } from '../store/types';
import { DEFAULT_CONTEXT_FILE, loadMemory } from './memory/load';
import type { SkillListing } from '../core/skills';
import { discoverSkills, skillWarnings } from './skills/discover';

export interface LoadMemoryInput {
  workspace: string;
  /** `context.fileName` of the settings, as the client read it; absent: `GEMINI.md`. */
  fileNames?: string[];
  /** The workspace is trusted: its own skills are offered too (absent: not trusted). */
  trusted?: boolean;
}

/** What a prompt records of its memory: the text stays in the store, history holds its reference. */
export interface MemoryLoaded {
  /** Reference of the text in the transcript store; absent when no context file had content. */
  memoryRef?: string;
  files: string[];
  chars: number;
  warnings: string[];
  /** The Agent Skills found (absent: none), and why others were skipped. */
  skills?: SkillListing[];
  skillWarnings?: string[];
}

/**
 * The prompt's project context and its skills, read once at its start: an activity, so replay never reads the
 * files again and an edit between two prompts is seen by the second. The text goes into the store
 * (content-addressed) and every request of the prompt resolves the reference into its system instruction.
 */
export async function loadPromptMemory(
  deps: { store: TranscriptStore; home?: string },
  input: LoadMemoryInput,
): Promise<MemoryLoaded> {
  const fileNames = input.fileNames && input.fileNames.length > 0 ? input.fileNames : [DEFAULT_CONTEXT_FILE];
  const loaded = await loadMemory({ workspace: input.workspace, home: deps.home, fileNames });
  const memoryRef = loaded.text === '' ? undefined : await deps.store.putBlob(loaded.text);
  const found = await discoverSkills({ workspace: input.workspace, home: deps.home, trusted: input.trusted === true });
  const warnings = skillWarnings(found.skipped);
  return {
    ...(memoryRef ? { memoryRef } : {}),
    files: loaded.files,
    chars: loaded.text.length,
    warnings: loaded.warnings,
    ...(found.skills.length > 0 ? { skills: found.skills } : {}),
    ...(warnings.length > 0 ? { skillWarnings: warnings } : {}),
  };
}
