import { codebaseInvestigatorAgent } from './builtins';
import { defaultOutputSchema } from './definition';
import { checkCompleteTask, completeTaskDeclaration, completeTaskOutputText } from './complete-task';

describe('completeTaskDeclaration', () => {
  it('declares the output schema as the parameters, a copy of it', () => {
    const schema = defaultOutputSchema();
    const declaration = completeTaskDeclaration(schema);
    expect(declaration.name).toBe('complete_task');
    expect(declaration.parametersJsonSchema).toEqual(schema);
    expect(declaration.parametersJsonSchema).not.toBe(schema);
    expect(declaration.description).toMatch(/ Output fields: result\.$/);
    expect(completeTaskDeclaration(codebaseInvestigatorAgent.outputSchema).description).toMatch(
      / Output fields: report\.$/,
    );
  });
});

describe('checkCompleteTask', () => {
  it('accepts valid arguments and returns them as the output', () => {
    const args = { result: 'The bug is in parse().' };
    expect(checkCompleteTask(args, defaultOutputSchema())).toEqual({ ok: true, output: args });
  });

  it('refuses a missing or empty result with a message naming the field', () => {
    expect(checkCompleteTask({}, defaultOutputSchema())).toEqual({
      ok: false,
      message:
        'complete_task was not accepted: the output does not match the required schema.\n' +
        '- result: required\n' +
        'Fix these fields and call complete_task again with the whole output.',
    });
    expect(checkCompleteTask({ result: '' }, defaultOutputSchema())).toEqual({
      ok: false,
      message:
        'complete_task was not accepted: the output does not match the required schema.\n' +
        '- result: must not be empty\n' +
        'Fix these fields and call complete_task again with the whole output.',
    });
  });

  it('refuses arguments that are not an object', () => {
    expect(checkCompleteTask(['x'], defaultOutputSchema())).toEqual({
      ok: false,
      message:
        'complete_task was not accepted: its arguments must be a JSON object, the output itself (fields: result). ' +
        'Call complete_task again.',
    });
  });

  it('lists nested problems of a structured output', () => {
    const args = {
      report: { SummaryOfFindings: 'x', ExplorationTrace: 'read a file', RelevantLocations: [{ FilePath: 'a.ts' }] },
    };
    const check = checkCompleteTask(args, codebaseInvestigatorAgent.outputSchema);
    expect(check).toEqual({
      ok: false,
      message: [
        'complete_task was not accepted: the output does not match the required schema.',
        '- report.ExplorationTrace: expected array, got string',
        '- report.RelevantLocations[0].Reasoning: required',
        '- report.RelevantLocations[0].KeySymbols: required',
        'Fix these fields and call complete_task again with the whole output.',
      ].join('\n'),
    });
  });

  it('lists at most 20 problems', () => {
    const schema = {
      type: 'object' as const,
      properties: { xs: { type: 'array' as const, items: { type: 'string' as const } } },
    };
    const check = checkCompleteTask({ xs: Array.from({ length: 25 }, (_, i) => i) }, schema);
    expect(check.ok).toBe(false);
    const lines = check.ok ? [] : check.message.split('\n');
    expect(lines).toHaveLength(23);
    expect(lines[21]).toBe('- ... and 5 more');
  });

  it('checks a blob marker as its preview and keeps it in the output', () => {
    const marker = { $blob: 'blob-1', size: 5000, preview: 'A long report...' };
    expect(checkCompleteTask({ result: marker }, defaultOutputSchema())).toEqual({
      ok: true,
      output: { result: marker },
    });
  });
});

describe('completeTaskOutputText', () => {
  it('unwraps a single string field, pretty-prints the rest', () => {
    expect(completeTaskOutputText({ result: 'Done.' })).toBe('Done.');
    expect(completeTaskOutputText({ report: { a: 1 } })).toBe('{\n  "a": 1\n}');
    expect(completeTaskOutputText({ a: 'x', b: 2 })).toBe('{\n  "a": "x",\n  "b": 2\n}');
  });
});
