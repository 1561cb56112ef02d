import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { activatedSkillText, type SkillListing } from '../../core/skills';
import type { TranscriptStore } from '../../store/types';
import { folderTree } from '../folder-tree';
import { readSkillFile } from './read';

export interface ActivateSkillInput {
  skill: SkillListing;
}

/** The function response in the store (`{ output }`) and its start, or why the skill cannot be activated. */
export type ActivateSkillOutput = { ok: true; responseRef: string; preview: string } | { ok: false; message: string };

const PREVIEW_CHARS = 300;

/**
 * `activate_skill`: the skill's instructions and its folder's files, read now (an edit since the
 * prompt started is seen) from the path discovery found. A file that was replaced by a link, removed
 * or broken since is refused with the reason. The text goes to the store; history keeps its reference.
 */
export async function activateSkill(store: TranscriptStore, input: ActivateSkillInput): Promise<ActivateSkillOutput> {
  const { name, location } = input.skill;
  const real = await fs.realpath(location).catch(() => undefined);
  if (real !== location)
    return { ok: false, message: `Skill "${name}" cannot be activated: ${location} is gone or now a link.` };
  const read = await readSkillFile(location);
  if (!read.ok) return { ok: false, message: `Skill "${name}" cannot be activated: ${location}: ${read.reason}.` };
  const text = activatedSkillText(name, read.body, await folderTree(path.dirname(location)));
  return {
    ok: true,
    responseRef: await store.putBlob(JSON.stringify({ output: text })),
    preview: text.slice(0, PREVIEW_CHARS),
  };
}
