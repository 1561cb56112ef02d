import { BUILTIN_AGENTS, codebaseInvestigatorAgent, generalistAgent } from './builtins';
import { defaultInputSchema } from './definition';
import {
  agentInputFromPrompt,
  findAgent,
  invokeAgentDescription,
  subagentResultText,
  unknownAgentMessage,
} from './invoke-agent';

describe('the invoke_agent protocol', () => {
  it('lists each available agent with its description on one line', () => {
    const agents = [...BUILTIN_AGENTS, { name: 'reviewer', description: 'Reviews a change\n  for security problems.' }];
    const lines = invokeAgentDescription(agents).split('\n');
    expect(lines[0]).toMatch(/^Run a sub-agent on a self-contained task\./);
    expect(lines.slice(1)).toEqual([
      '',
      'Pass one of these names as agent_name:',
      `- codebase_investigator: ${codebaseInvestigatorAgent.description}`,
      `- generalist: ${generalistAgent.description}`,
      '- reviewer: Reviews a change for security problems.',
    ]);
    expect(invokeAgentDescription([])).toMatch(/\n\nNo agents are available\.$/);
  });

  it('finds agents by exact name and explains an unknown one', () => {
    expect(findAgent(BUILTIN_AGENTS, 'generalist')).toBe(generalistAgent);
    expect(findAgent(BUILTIN_AGENTS, 'Generalist')).toBeUndefined();
    expect(unknownAgentMessage('helper', BUILTIN_AGENTS)).toBe(
      "Agent 'helper' not found. Available agents: codebase_investigator, generalist.",
    );
    expect(unknownAgentMessage('helper', [])).toBe("Agent 'helper' not found. Available agents: none.");
  });

  it('maps the prompt into the only input property, else into prompt', () => {
    expect(agentInputFromPrompt(codebaseInvestigatorAgent, 'Find X')).toEqual({ objective: 'Find X' });
    expect(agentInputFromPrompt(generalistAgent, 'Do Y')).toEqual({ request: 'Do Y' });
    expect(agentInputFromPrompt({ inputSchema: defaultInputSchema() }, 'Z')).toEqual({ prompt: 'Z' });
    const two = {
      type: 'object' as const,
      properties: { prompt: { type: 'string' as const }, depth: { type: 'integer' as const } },
    };
    expect(agentInputFromPrompt({ inputSchema: two }, 'Z')).toEqual({ prompt: 'Z' });
  });

  it('reports the sub-agent’s ending to the main model', () => {
    expect(subagentResultText('generalist', 'goal', 'All done.')).toBe(
      "Agent 'generalist' finished.\nTermination reason: goal\nResult:\nAll done.",
    );
    expect(subagentResultText('generalist', 'max_turns', 'Agent reached max turns limit (20).')).toBe(
      "Agent 'generalist' finished.\nTermination reason: max_turns\nResult:\nAgent reached max turns limit (20).",
    );
    expect(subagentResultText('generalist', 'error', 'model call failed')).toBe(
      "Agent 'generalist' failed. Error: model call failed",
    );
    expect(subagentResultText('generalist', 'aborted', '')).toBe(
      "Agent 'generalist' was cancelled before it finished.",
    );
  });
});
