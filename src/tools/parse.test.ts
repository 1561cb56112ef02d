import { TOOLS, findTool, parseToolArgs, toFunctionDeclaration, toolNames } from './index';
import { isReadOnly } from './types';

function walkSchema(node: unknown, visit: (key: string, value: unknown) => void): void {
  if (Array.isArray(node)) return node.forEach((item) => walkSchema(item, visit));
  if (node === null || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node)) {
    visit(key, value);
    walkSchema(value, visit);
  }
}

describe('tool list', () => {
  it('offers the core tools under Gemini CLI names', () => {
    expect(toolNames).toEqual([
      'read_file',
      'write_file',
      'replace',
      'list_directory',
      'glob',
      'grep_search',
      'run_shell_command',
      'enter_plan_mode',
      'exit_plan_mode',
      'read_tool_output',
      'invoke_agent',
      'complete_task',
      'write_todos',
      'update_topic',
      'activate_skill',
      'save_memory',
      'ask_user',
      'web_fetch',
      'google_web_search',
      'list_background_processes',
      'read_background_output',
    ]);
    expect(TOOLS.map((tool) => tool.name)).toEqual(toolNames);
  });

  it('finds tools by name, including the legacy grep name', () => {
    expect(findTool('glob')?.name).toBe('glob');
    expect(findTool('search_file_content')?.name).toBe('grep_search');
    expect(findTool('nope')).toBeUndefined();
  });

  it('marks reading and searching tools read-only and the rest mutating', () => {
    const readOnly = TOOLS.filter((tool) => isReadOnly(tool)).map((tool) => tool.name);
    expect(readOnly.sort()).toEqual([
      'glob',
      'google_web_search',
      'grep_search',
      'list_background_processes',
      'list_directory',
      'read_background_output',
      'read_file',
      'read_tool_output',
      'web_fetch',
    ]);
  });
});

describe('toFunctionDeclaration', () => {
  it.each(TOOLS.map((tool) => [tool.name, tool] as const))('%s declares a clean JSON schema', (_name, tool) => {
    const declaration = toFunctionDeclaration(tool);
    expect(declaration.name).toBe(tool.name);
    expect(declaration.description.length).toBeGreaterThan(40);
    const schema = declaration.parametersJsonSchema;
    expect(schema.type).toBe('object');
    expect(schema).not.toHaveProperty('$schema');
    walkSchema(schema, (key, value) => {
      expect(key === 'additionalProperties' && value === false).toBe(false);
      if (key === 'maximum' || key === 'minimum')
        expect(Math.abs(value as number)).toBeLessThan(Number.MAX_SAFE_INTEGER);
    });
  });

  it('converts a schema once, and gives each caller a copy of its own', () => {
    const first = toFunctionDeclaration(findTool('read_file')!);
    (first.parametersJsonSchema.required as string[]).push('changed');
    const second = toFunctionDeclaration(findTool('read_file')!);
    expect(second.parametersJsonSchema.required).toEqual(['file_path']);
    expect(second).toEqual(toFunctionDeclaration(findTool('read_file')!));
  });

  it('lists required parameters as Gemini CLI does', () => {
    const required = (name: string) => toFunctionDeclaration(findTool(name)!).parametersJsonSchema.required;
    expect(required('read_file')).toEqual(['file_path']);
    expect(required('write_file')).toEqual(['file_path', 'content']);
    expect(required('replace')).toEqual(['file_path', 'old_string', 'new_string']);
    expect(required('list_directory')).toEqual(['dir_path']);
    expect(required('glob')).toEqual(['pattern']);
    expect(required('grep_search')).toEqual(['pattern']);
    expect(required('run_shell_command')).toEqual(['command']);
    const readFile = toFunctionDeclaration(findTool('read_file')!).parametersJsonSchema;
    expect(Object.keys(readFile.properties as object)).toEqual([
      'file_path',
      'start_line',
      'end_line',
      'offset',
      'limit',
    ]);
  });
});

describe('parseToolArgs', () => {
  it('names the available tools and suggests the closest for an unknown one', () => {
    const result = parseToolArgs('read_fil', { file_path: 'a' });
    expect(result).toMatchObject({ ok: false, error: { kind: 'tool_not_registered' } });
    const message = result.ok ? '' : result.error.message;
    expect(message).toContain('"read_fil" not found');
    expect(message).toContain('Did you mean "read_file"?');
    expect(message).toContain('run_shell_command');
    const far = parseToolArgs('launch_rockets', {});
    expect(far.ok ? '' : far.error.message).not.toContain('Did you mean');
  });

  it('says which parameter is missing', () => {
    const result = parseToolArgs('read_file', {});
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.kind).toBe('invalid_tool_params');
    expect(result.error.message).toContain('missing required parameter "file_path"');
    expect(result.error.message).toContain('file_path (required)');
  });

  it('says which parameter has the wrong type or value', () => {
    const wrongType = parseToolArgs('read_file', { file_path: 'a', start_line: 'ten' });
    expect(wrongType.ok ? '' : wrongType.error.message).toMatch(/parameter "start_line": .*number/);
    const tooSmall = parseToolArgs('grep_search', { pattern: 'x', total_max_matches: 0 });
    expect(tooSmall.ok ? '' : tooSmall.error.message).toMatch(/parameter "total_max_matches"/);
    const nested = parseToolArgs('list_directory', {
      dir_path: '.',
      file_filtering_options: { respect_git_ignore: 'yes' },
    });
    expect(nested.ok ? '' : nested.error.message).toContain('"file_filtering_options.respect_git_ignore"');
  });

  it('refuses arguments that are not an object', () => {
    for (const args of [[1, 2], 'a', 3]) {
      const result = parseToolArgs('glob', args);
      expect(result).toMatchObject({ ok: false, error: { kind: 'invalid_tool_params' } });
    }
  });

  it('accepts extra arguments such as wait_for_previous and returns the original object', () => {
    const args = { pattern: '*.ts', wait_for_previous: true };
    const result = parseToolArgs('glob', args);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.args).toBe(args);
  });

  it('validates blob markers as their preview string and keeps them in the result', () => {
    const marker = { $blob: 'sha256:abc', size: 500_000, preview: 'const x = 1;' };
    const args = { file_path: 'big.ts', content: marker };
    const result = parseToolArgs('write_file', args);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.args.content).toBe(marker);
    const nested = parseToolArgs('list_directory', { dir_path: '.', ignore: [marker] });
    expect(nested.ok).toBe(true);
  });

  it('still refuses a blob marker where a number is expected', () => {
    const marker = { $blob: 'sha256:abc', size: 10, preview: '5' };
    const result = parseToolArgs('read_file', { file_path: 'a', start_line: marker });
    expect(result).toMatchObject({ ok: false, error: { kind: 'invalid_tool_params' } });
  });

  it('refuses an invalid regular expression in grep_search before running it', () => {
    const result = parseToolArgs('grep_search', { pattern: 'foo(' });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.kind).toBe('invalid_tool_params');
      expect(result.error.message).toContain('not a valid JavaScript regular expression');
    }
  });
});
