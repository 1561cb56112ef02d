import { toolNames } from '../../tools';
import { BUILTIN_AGENTS, codebaseInvestigatorAgent, generalistAgent, isBuiltinAgentName } from './builtins';
import { parseAgentDefinition, resolveAgentTools } from './definition';
import { checkJsonSchema } from './json-schema-check';

const REPORT = {
  report: {
    SummaryOfFindings: 'Retries are configured twice: the SDK retries on its own and so does the activity.',
    ExplorationTrace: [
      'grep_search "retry" in src/',
      'read_file src/genai.ts',
      'read_file src/activities/call-model.ts',
    ],
    RelevantLocations: [
      { FilePath: 'src/genai.ts', Reasoning: 'Builds the SDK client; sets httpOptions.', KeySymbols: ['createGenAi'] },
      {
        FilePath: 'src/activities/call-model.ts',
        Reasoning: 'The activity whose retry policy applies.',
        KeySymbols: [],
      },
    ],
  },
};

describe('built-in agents', () => {
  it.each(BUILTIN_AGENTS.map((agent) => [agent.name, agent]))(
    '%s is a valid definition, unchanged by parsing',
    (_name, agent) => {
      expect(parseAgentDefinition(agent, 'built-in')).toEqual(agent);
    },
  );

  it('codebase_investigator has Gemini CLI’s read-only tools, input, and limits', () => {
    expect(codebaseInvestigatorAgent.tools).toEqual(['list_directory', 'read_file', 'glob', 'grep_search']);
    expect(Object.keys(codebaseInvestigatorAgent.inputSchema.properties ?? {})).toEqual(['objective']);
    expect(codebaseInvestigatorAgent).toMatchObject({
      temperature: 0.1,
      maxTurns: 50,
      maxMinutes: 10,
      recoveryGraceSeconds: 60,
    });
    expect(resolveAgentTools(codebaseInvestigatorAgent, toolNames)).toEqual({
      ok: true,
      tools: codebaseInvestigatorAgent.tools,
    });
  });

  it('codebase_investigator accepts a realistic report', () => {
    expect(checkJsonSchema(REPORT, codebaseInvestigatorAgent.outputSchema)).toEqual({ ok: true });
  });

  it('codebase_investigator refuses a report without RelevantLocations, or with a location missing fields', () => {
    const withoutLocations: Record<string, unknown> = { ...REPORT.report };
    delete withoutLocations.RelevantLocations;
    expect(checkJsonSchema({ report: withoutLocations }, codebaseInvestigatorAgent.outputSchema)).toEqual({
      ok: false,
      errors: ['report.RelevantLocations: required'],
    });
    const badLocation = { report: { ...REPORT.report, RelevantLocations: [{ FilePath: 'a.ts', KeySymbols: 'x' }] } };
    expect(checkJsonSchema(badLocation, codebaseInvestigatorAgent.outputSchema)).toEqual({
      ok: false,
      errors: [
        'report.RelevantLocations[0].Reasoning: required',
        'report.RelevantLocations[0].KeySymbols: expected array, got string',
      ],
    });
    expect(checkJsonSchema(REPORT.report, codebaseInvestigatorAgent.outputSchema)).toEqual({
      ok: false,
      errors: ['report: required'],
    });
  });

  it('generalist inherits every main-agent tool but invoke_agent, ask_user and update_topic, and returns a result string', () => {
    expect(generalistAgent.tools).toBeUndefined();
    const resolved = resolveAgentTools(generalistAgent, [...toolNames, 'invoke_agent']);
    expect(resolved).toEqual({
      ok: true,
      tools: toolNames.filter(
        (name) => !['invoke_agent', 'complete_task', 'ask_user', 'update_topic', 'activate_skill'].includes(name),
      ),
    });
    expect(generalistAgent).toMatchObject({ maxTurns: 20, maxMinutes: 10 });
    expect(generalistAgent.model).toBeUndefined();
    expect(Object.keys(generalistAgent.inputSchema.properties ?? {})).toEqual(['request']);
    expect(checkJsonSchema({ result: 'Done.' }, generalistAgent.outputSchema)).toEqual({ ok: true });
    expect(checkJsonSchema({ result: '' }, generalistAgent.outputSchema)).toEqual({
      ok: false,
      errors: ['result: must not be empty'],
    });
  });

  it('knows the built-in names', () => {
    expect(isBuiltinAgentName('generalist')).toBe(true);
    expect(isBuiltinAgentName('codebase_investigator')).toBe(true);
    expect(isBuiltinAgentName('reviewer')).toBe(false);
  });
});
