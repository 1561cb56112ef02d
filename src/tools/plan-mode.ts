import { z } from 'zod';
import type { WorkflowTool } from './types';

/** Where plan mode lets `write_file` and `replace` write, relative to the workspace. */
export const PLANS_DIR = '.durable-agent/plans';

const enterSchema = z.object({
  reason: z.string().optional().describe('Why planning first is worthwhile for this task.'),
});

/** Asks to switch the prompt to plan mode; the workflow carries it out (it changes the prompt's approval mode). */
export const enterPlanModeTool: WorkflowTool<typeof enterSchema> = {
  name: 'enter_plan_mode',
  description:
    'Switch to plan mode before a large or risky change: only read-only tools run, and you may write a ' +
    `Markdown plan under ${PLANS_DIR}/. A person approves the switch.`,
  kind: 'plan',
  runsIn: 'workflow',
  parameters: enterSchema,
};

const exitSchema = z.object({
  plan_filename: z.string().min(1).describe(`File name of the finished plan under ${PLANS_DIR}/.`),
});

/** Presents the finished plan; the approver picks the mode the prompt continues in. */
export const exitPlanModeTool: WorkflowTool<typeof exitSchema> = {
  name: 'exit_plan_mode',
  description:
    `Present the finished plan (a Markdown file under ${PLANS_DIR}/) for approval and leave plan mode. ` +
    'If it is approved, carry the plan out; if not, revise it.',
  kind: 'plan',
  runsIn: 'workflow',
  parameters: exitSchema,
};
