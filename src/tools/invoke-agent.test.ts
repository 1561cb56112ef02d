import { toFunctionDeclaration } from './index';
import { invokeAgentTool } from './invoke-agent';

describe('invoke_agent', () => {
  it('is a workflow tool taking agent_name and prompt, both required', () => {
    expect(invokeAgentTool).toMatchObject({ name: 'invoke_agent', kind: 'agent', runsIn: 'workflow' });
    const declaration = toFunctionDeclaration(invokeAgentTool);
    expect(Object.keys(declaration.parametersJsonSchema.properties as object)).toEqual(['agent_name', 'prompt']);
    expect(declaration.parametersJsonSchema.required).toEqual(['agent_name', 'prompt']);
    expect(invokeAgentTool.parameters.safeParse({ agent_name: 'generalist' }).success).toBe(false);
  });
});
