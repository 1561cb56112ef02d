import { z } from 'zod';
import { INVOKE_AGENT_DESCRIPTION } from '../core/agents/invoke-agent';
import type { WorkflowTool } from './types';

const schema = z.object({
  agent_name: z.string().min(1).describe('Name of the agent to run, one of those listed in this tool’s description.'),
  prompt: z
    .string()
    .min(1)
    .describe(
      'The complete task for the agent. It sees nothing of this conversation, so include the goal, the context and ' +
        'files you already know about, the questions to answer and what the answer should contain.',
    ),
});

/**
 * `invoke_agent`: runs a sub-agent as a child workflow. The workflow replaces this description with
 * one that lists the agents loaded for the prompt (`invokeAgentDescription`).
 */
export const invokeAgentTool: WorkflowTool<typeof schema> = {
  name: 'invoke_agent',
  description: INVOKE_AGENT_DESCRIPTION,
  kind: 'agent',
  runsIn: 'workflow',
  parameters: schema,
};
