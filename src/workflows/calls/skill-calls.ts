import { activateSkillDescription, findSkill, unknownSkillMessage, type SkillListing } from '../../core/skills';
import { activateSkillTool } from '../../tools/activate-skill';
import { toFunctionDeclaration, type FunctionDeclaration } from '../../tools';
import type { PromptActivities } from '../state/activity-options';
import type { PromptState } from '../state/prompt-state';
import type { CallRecord } from '../api';
import type { WorkflowToolResult } from './tool-result';

/** The skills this prompt found at its start (carried across continue-as-new); none in older runs. */
export function skillsOf(state: PromptState): SkillListing[] {
  return state.context.skills ?? [];
}

/** `activate_skill`'s declaration when the prompt found skills; none otherwise (the tool is not offered). */
export function skillDeclarations(state: PromptState): FunctionDeclaration[] {
  const skills = skillsOf(state);
  return skills.length > 0 ? [activateSkillDeclaration(skills)] : [];
}

/** `activate_skill` as the model sees it: `name` is one of the skills' names, as Gemini CLI declares it. */
export function activateSkillDeclaration(skills: readonly SkillListing[]): FunctionDeclaration {
  const base = toFunctionDeclaration(activateSkillTool);
  const name = {
    type: 'string',
    enum: skills.map((skill) => skill.name),
    description: 'The name of the skill to activate.',
  };
  return {
    ...base,
    description: activateSkillDescription(skills),
    parametersJsonSchema: { ...base.parametersJsonSchema, properties: { name } },
  };
}

/** Reads the skill in an activity (on the prompt's host) and answers with its instructions and files. */
export async function activateSkill(
  state: PromptState,
  record: CallRecord,
  acts: Pick<PromptActivities, 'activateSkill'>,
): Promise<WorkflowToolResult> {
  const name = String(record.args.name ?? '');
  const skill = findSkill(skillsOf(state), name);
  if (!skill) return { ok: false, text: unknownSkillMessage(name, skillsOf(state)) };
  const out = await acts.activateSkill({ skill });
  return out.ok ? { ok: true, text: out.preview, responseRef: out.responseRef } : { ok: false, text: out.message };
}
