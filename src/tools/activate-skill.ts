import { z } from 'zod';
import type { WorkflowTool } from './types';

const schema = z.object({
  name: z.string().min(1).describe('The name of the skill to activate, exactly as listed.'),
});

/**
 * `activate_skill`, under Gemini CLI 0.61.0's name and parameter: returns a discovered skill's
 * instructions and its folder's files. The workflow offers it only when the prompt found skills, and
 * declares `name` as an enum of their names (`activateSkillDeclaration`); it reads the skill in an activity.
 */
export const activateSkillTool: WorkflowTool<typeof schema> = {
  name: 'activate_skill',
  description: 'Activates one of the available skills by name.',
  kind: 'other',
  asks: true,
  runsIn: 'workflow',
  parameters: schema,
};
