import { z } from 'zod';
import { COMPLETE_TASK, COMPLETE_TASK_DESCRIPTION } from '../core/agents/complete-task';
import type { WorkflowTool } from './types';

const schema = z.record(z.string(), z.unknown());

/**
 * `complete_task`: a sub-agent submits its output and ends. Its arguments are the output itself, so
 * this generic declaration is replaced by one built from the agent's output schema
 * (`completeTaskDeclaration`), and the child workflow checks them (`checkCompleteTask`).
 */
export const completeTaskTool: WorkflowTool<typeof schema> = {
  name: COMPLETE_TASK,
  description: COMPLETE_TASK_DESCRIPTION,
  kind: 'other',
  promptOnly: true,
  runsIn: 'workflow',
  parameters: schema,
};
