import {
  AgentDefinitionError,
  DEFAULT_MAX_MINUTES,
  DEFAULT_MAX_TURNS,
  DEFAULT_RECOVERY_GRACE_SECONDS,
  defaultInputSchema,
  defaultOutputSchema,
  parseAgentDefinition,
  resolveAgentTools,
} from './definition';

const BASE = { name: 'security_reviewer', description: 'Reviews changes.', systemPrompt: 'You review code.' };

function problem(raw: unknown): string {
  try {
    parseAgentDefinition(raw, 'agents/reviewer.md');
  } catch (err) {
    expect(err).toBeInstanceOf(AgentDefinitionError);
    return (err as Error).message;
  }
  throw new Error('expected the definition to be refused');
}

describe('parseAgentDefinition', () => {
  it('fills Gemini CLI defaults for a minimal definition', () => {
    expect(parseAgentDefinition(BASE, 'x')).toEqual({
      ...BASE,
      inputSchema: defaultInputSchema(),
      outputSchema: defaultOutputSchema(),
      maxTurns: DEFAULT_MAX_TURNS,
      maxMinutes: DEFAULT_MAX_MINUTES,
      recoveryGraceSeconds: DEFAULT_RECOVERY_GRACE_SECONDS,
    });
    expect([DEFAULT_MAX_TURNS, DEFAULT_MAX_MINUTES, DEFAULT_RECOVERY_GRACE_SECONDS]).toEqual([30, 10, 60]);
  });

  it('keeps every field of a full definition, and its result is plain JSON', () => {
    const full = {
      ...BASE,
      inputSchema: { type: 'object', properties: { objective: { type: 'string' } }, required: ['objective'] },
      outputSchema: {
        type: 'object',
        properties: {
          verdict: { type: 'string', enum: ['ok', 'needs_changes'] },
          notes: { type: 'array', items: { type: 'string' } },
        },
        required: ['verdict'],
        additionalProperties: false,
      },
      tools: ['read_file', 'grep_search'],
      model: 'gemini-2.5-pro',
      temperature: 0.2,
      maxTurns: 12,
      maxMinutes: 2.5,
      recoveryGraceSeconds: 30,
    };
    const parsed = parseAgentDefinition(full, 'x');
    expect(parsed).toEqual(full);
    expect(JSON.parse(JSON.stringify(parsed))).toEqual(parsed);
  });

  it('gives each definition its own default schemas', () => {
    const a = parseAgentDefinition(BASE, 'a');
    a.outputSchema.required?.push('mutated');
    expect(parseAgentDefinition(BASE, 'b').outputSchema.required).toEqual(['result']);
  });

  it.each([
    ['missing name', { description: 'd', systemPrompt: 'p' }, 'name: is required'],
    [
      'bad name',
      { ...BASE, name: 'Security-Reviewer' },
      'name: must start with a lowercase letter and hold only lowercase letters, digits and underscores',
    ],
    ['blank description', { ...BASE, description: '  ' }, 'description: must not be empty'],
    ['empty system prompt', { ...BASE, systemPrompt: '' }, 'systemPrompt: must not be empty'],
    [
      'wildcard tool',
      { ...BASE, tools: ['read_file', '*'] },
      'tools[1]: wildcards are supported only at the end of an MCP tool name (mcp_<server>_*): list other tools by name',
    ],
    [
      'invoke_agent as a tool',
      { ...BASE, tools: ['invoke_agent'] },
      'tools[0]: invoke_agent cannot be given to a sub-agent (no recursion)',
    ],
    [
      'complete_task listed',
      { ...BASE, tools: ['complete_task'] },
      'tools[0]: complete_task is always available to a sub-agent: do not list it',
    ],
    ['tool twice', { ...BASE, tools: ['glob', 'glob'] }, 'tools: lists a tool twice'],
    ['tools not a list', { ...BASE, tools: 'glob' }, 'tools: must be a list of tool names'],
    ['temperature out of range', { ...BASE, temperature: 2.5 }, 'temperature: must be a number from 0 to 2'],
    ['zero turns', { ...BASE, maxTurns: 0 }, 'maxTurns: must be a whole number above 0'],
    ['fractional turns', { ...BASE, maxTurns: 1.5 }, 'maxTurns: must be a whole number above 0'],
    ['negative minutes', { ...BASE, maxMinutes: -1 }, 'maxMinutes: must be a number of minutes above 0'],
    [
      'grace as text',
      { ...BASE, recoveryGraceSeconds: '60' },
      'recoveryGraceSeconds: must be a number of seconds above 0',
    ],
    ['unknown field', { ...BASE, colour: 'red' }, 'colour: unknown field'],
    ['not an object', 'name: x', '(definition): must be an object'],
    ['output schema not an object', { ...BASE, outputSchema: 'result' }, 'outputSchema: must be an object'],
    [
      'output not of type object',
      { ...BASE, outputSchema: { type: 'array', items: { type: 'string' } } },
      'outputSchema.type: must be "object": complete_task takes the output as its arguments',
    ],
    [
      'unsupported keyword',
      { ...BASE, outputSchema: { type: 'object', properties: { a: { type: 'string', pattern: '^x' } } } },
      'outputSchema.properties.a.pattern: unsupported JSON Schema keyword (supported: type, title, description, ' +
        'properties, required, additionalProperties, items, minItems, minLength, enum)',
    ],
    [
      'unknown type',
      { ...BASE, outputSchema: { type: 'object', properties: { a: { type: 'date' } } } },
      'outputSchema.properties.a.type: must be one of object, array, string, number, integer, boolean',
    ],
    [
      'required but not a property',
      { ...BASE, outputSchema: { type: 'object', properties: { a: {} }, required: ['a', 'b'] } },
      'outputSchema.required: "b" is required but not among properties',
    ],
    [
      'required naming an inherited name',
      { ...BASE, outputSchema: { type: 'object', properties: {}, required: ['toString'] } },
      'outputSchema.required: "toString" is required but not among properties',
    ],
    [
      'input with several properties and no prompt',
      { ...BASE, inputSchema: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } } } },
      'inputSchema: with several properties, one must be "prompt" (invoke_agent fills it)',
    ],
    [
      'input that is not a string',
      { ...BASE, inputSchema: { type: 'object', properties: { n: { type: 'number' } } } },
      'inputSchema: "n" must be a string: invoke_agent passes the prompt text',
    ],
    [
      'input requiring more than the prompt',
      {
        ...BASE,
        inputSchema: { type: 'object', properties: { prompt: { type: 'string' }, b: {} }, required: ['prompt', 'b'] },
      },
      'inputSchema: only "prompt" may be required: invoke_agent passes nothing else (b)',
    ],
  ])('refuses %s, naming the source and field', (_label, raw, expected) => {
    expect(problem(raw)).toBe(`agents/reviewer.md: ${expected}`);
  });

  it('lists every problem and keeps them as issues', () => {
    try {
      parseAgentDefinition({ name: 'X', description: '' }, 'src');
      throw new Error('not refused');
    } catch (err) {
      expect((err as AgentDefinitionError).issues.map((issue) => issue.field)).toEqual([
        'name',
        'description',
        'systemPrompt',
      ]);
      expect((err as AgentDefinitionError).source).toBe('src');
    }
  });
});

describe('resolveAgentTools', () => {
  const available = ['read_file', 'write_file', 'glob', 'invoke_agent', 'complete_task'];

  it('gives an agent without a list every tool but invoke_agent and complete_task', () => {
    expect(resolveAgentTools({ name: 'generalist' }, available)).toEqual({
      ok: true,
      tools: ['read_file', 'write_file', 'glob'],
    });
  });

  it('keeps an explicit list and refuses names the main agent does not have', () => {
    expect(resolveAgentTools({ name: 'a', tools: ['glob'] }, available)).toEqual({ ok: true, tools: ['glob'] });
    expect(resolveAgentTools({ name: 'a', tools: ['glob', 'web_fetch'] }, available)).toEqual({
      ok: false,
      message: 'agent a: unknown tool web_fetch (available: read_file, write_file, glob, invoke_agent, complete_task)',
    });
  });

  it('takes MCP tools by name or wildcard from what discovery found; one not found is left out', () => {
    const withMcp = [...available, 'mcp_gh_issue', 'mcp_gh_pr', 'mcp_db_query'];
    expect(resolveAgentTools({ name: 'a', tools: ['glob', 'mcp_gh_*', 'mcp_gh_pr', 'mcp_x_y'] }, withMcp)).toEqual({
      ok: true,
      tools: ['glob', 'mcp_gh_issue', 'mcp_gh_pr'],
    });
    expect(resolveAgentTools({ name: 'a', tools: ['mcp_*'] }, withMcp)).toEqual({
      ok: true,
      tools: ['mcp_gh_issue', 'mcp_gh_pr', 'mcp_db_query'],
    });
  });
});
