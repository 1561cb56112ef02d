import type { AgentDefinition } from '../../core/agents/definition';

/**
 * What a sub-agent's run has beyond a prompt's: its definition (tools, output schema, limits), the tools it may call
 * (complete_task aside) and the complete_task output once accepted. Kept out of the prompt's state: a prompt has
 * none of it, and a sub-agent never continues as new, so none of it is carried.
 */
export interface SubagentScope {
  readonly definition: AgentDefinition;
  readonly tools: readonly string[];
  /** Set by the run (`complete`) when a complete_task output fits the schema. */
  completion?: Record<string, unknown>;
}
