import { mcpToolName, mcpToolWanted, mcpTrustRules } from './mcp';
import { evaluatePolicy } from './policy/index';

describe('mcpToolName', () => {
  it.each([
    ['github', 'list_issues', 'mcp_github_list_issues'],
    ['my server', 'get/thing', 'mcp_my_server_get_thing'],
    ['a.b-c', 'x:y', 'mcp_a.b-c_x_y'],
  ])('names %s / %s as Gemini CLI does: %s', (server, tool, name) => {
    expect(mcpToolName(server, tool)).toBe(name);
  });

  it('cuts a name over 63 characters to its first 28 and last 32 around ___', () => {
    const name = mcpToolName('a-very-long-server-name', 'and_an_even_longer_tool_name_that_goes_on_and_on');
    expect(name).toHaveLength(63);
    expect(name).toBe('mcp_a-very-long-server-name____er_tool_name_that_goes_on_and_on');
    expect(mcpToolName('s', 'x'.repeat(57))).toHaveLength(63);
  });
});

describe('mcpToolWanted', () => {
  it('keeps includeTools only, and excludeTools wins', () => {
    const config = { command: 'x', includeTools: ['a', 'b'], excludeTools: ['b'] };
    expect(['a', 'b', 'c'].filter((t) => mcpToolWanted(config, t))).toEqual(['a']);
    expect(mcpToolWanted({ command: 'x' }, 'z')).toBe(true);
  });
});

describe('mcpTrustRules', () => {
  it('allows the tools of a trusted server only', () => {
    const rules = [...mcpTrustRules({ t: { command: 'x', trust: true }, u: { command: 'y' } })];
    const context = { mode: 'default' as const, plansDir: 'plans', workspaceRoot: '/w' };
    expect(evaluatePolicy({ rules }, { name: 'mcp_t_tool', args: {} }, context).decision).toBe('allow');
    expect(evaluatePolicy({ rules }, { name: 'mcp_u_tool', args: {} }, context).decision).toBe('ask_user');
  });
});
