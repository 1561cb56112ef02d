import type { AgentDefinition } from './definition';
import type { SubagentTerminateReason } from './recovery';

/**
 * `invoke_agent`'s protocol: the one tool through which the main model runs a sub-agent.
 * The workflow carries it out by starting a child workflow; the available agents and what
 * they are for are listed in the tool's description (`invokeAgentDescription`), so the declaration
 * the model sees depends on the agents loaded for the prompt.
 */

export const INVOKE_AGENT_DESCRIPTION =
  'Run a sub-agent on a self-contained task. The agent works on its own, with its own tools and turn limit, and ' +
  'returns only its final result, which keeps the details of its work out of this conversation.';

/** The tool's description for this set of agents: what it does, then each agent's name and purpose. */
export function invokeAgentDescription(agents: readonly Pick<AgentDefinition, 'name' | 'description'>[]): string {
  if (agents.length === 0) return `${INVOKE_AGENT_DESCRIPTION}\n\nNo agents are available.`;
  const listed = agents.map((agent) => `- ${agent.name}: ${oneLine(agent.description)}`);
  return [INVOKE_AGENT_DESCRIPTION, '', 'Pass one of these names as agent_name:', ...listed].join('\n');
}

export function findAgent<A extends Pick<AgentDefinition, 'name'>>(agents: readonly A[], name: string): A | undefined {
  return agents.find((agent) => agent.name === name);
}

/** The error result for an `agent_name` that is not loaded. */
export function unknownAgentMessage(name: string, agents: readonly Pick<AgentDefinition, 'name'>[]): string {
  const names = agents.map((agent) => agent.name).join(', ') || 'none';
  return `Agent '${name}' not found. Available agents: ${names}.`;
}

/**
 * The agent's input built from the one prompt string (Gemini CLI's mapping): its only input property
 * receives the prompt, otherwise `prompt` does. Definitions are checked to accept this at parse time.
 */
export function agentInputFromPrompt(
  agent: Pick<AgentDefinition, 'inputSchema'>,
  prompt: string,
): Record<string, string> {
  const names = Object.keys(agent.inputSchema.properties ?? {});
  return { [names.length === 1 ? names[0] : 'prompt']: prompt };
}

/**
 * What the main model receives as `invoke_agent`'s result. `result` is the output text
 * (complete_task's output, or the termination message when the run ended without one).
 */
export function subagentResultText(agentName: string, reason: SubagentTerminateReason, result: string): string {
  if (reason === 'error') return `Agent '${agentName}' failed. Error: ${result}`;
  if (reason === 'aborted') return `Agent '${agentName}' was cancelled before it finished.`;
  return `Agent '${agentName}' finished.\nTermination reason: ${reason}\nResult:\n${result}`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
