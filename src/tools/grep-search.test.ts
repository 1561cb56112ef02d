import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import {
  callTool,
  errorOf,
  makeOutsideDir,
  makeWorkspace,
  outputOf,
  removeWorkspaces,
} from '../../test/helpers/tool-harness';

afterAll(removeWorkspaces);

const FILES = {
  'src/a.ts': 'import x from "y";\nexport function loadUser() {}\n// TODO: cache\n',
  'src/b.js': 'function loadOrder() {}\nconst TODO = 1;\n',
  'README.md': 'Call loadUser to load.\n',
};

describe('grep_search', () => {
  it('groups matching lines by file as L<line>: text', async () => {
    const { deps } = await makeWorkspace(FILES);
    const output = outputOf(await callTool('grep_search', { pattern: 'function\\s+load' }, deps));
    expect(output).toBe(
      [
        'Found 2 matches for pattern "function\\s+load" in the workspace root:',
        '---',
        'File: src/a.ts',
        'L2: export function loadUser() {}',
        '---',
        'File: src/b.js',
        'L1: function loadOrder() {}',
        '---',
      ].join('\n'),
    );
  });

  it('ignores case unless case_sensitive is set', async () => {
    const { deps } = await makeWorkspace(FILES);
    expect(outputOf(await callTool('grep_search', { pattern: 'todo' }, deps))).toContain('Found 2 matches');
    expect(outputOf(await callTool('grep_search', { pattern: 'todo', case_sensitive: true }, deps))).toContain(
      'No matches',
    );
  });

  it('filters files with include_pattern (or the older include) and lines with exclude_pattern', async () => {
    const { deps } = await makeWorkspace(FILES);
    const included = outputOf(await callTool('grep_search', { pattern: 'load', include_pattern: '*.{ts,js}' }, deps));
    expect(included).toContain('(files matching "*.{ts,js}")');
    expect(included).not.toContain('README.md');
    const older = outputOf(await callTool('grep_search', { pattern: 'load', include: 'src/**' }, deps));
    expect(older).not.toContain('README.md');
    const excluded = outputOf(await callTool('grep_search', { pattern: 'load', exclude_pattern: 'function' }, deps));
    expect(excluded).toContain('File: README.md');
    expect(excluded).not.toContain('function');
  });

  it('returns only file paths with names_only', async () => {
    const { deps } = await makeWorkspace(FILES);
    const output = outputOf(await callTool('grep_search', { pattern: 'load', names_only: true }, deps));
    expect(output).toBe(
      '3 files with matches for pattern "load" in the workspace root:\nREADME.md\nsrc/a.ts\nsrc/b.js',
    );
  });

  it('searches under dir_path and reports workspace-relative paths', async () => {
    const { deps } = await makeWorkspace(FILES);
    const output = outputOf(await callTool('grep_search', { pattern: 'TODO', dir_path: 'src' }, deps));
    expect(output).toContain('in src:');
    expect(output).toContain('File: src/a.ts\nL3: // TODO: cache');
  });

  it('stops at 100 matches by default and at the limits it is given', async () => {
    const many = Array.from({ length: 150 }, (_, i) => `hit ${i + 1}`).join('\n');
    const { deps } = await makeWorkspace({ 'a.txt': many, 'b.txt': many });
    const capped = outputOf(await callTool('grep_search', { pattern: 'hit' }, deps));
    expect(capped).toContain('Found 100 matches');
    expect(capped).toContain('L100: hit 100');
    expect(capped).not.toContain('L101:');
    expect(capped).toContain('limit of 100 matches was reached');
    const perFile = outputOf(await callTool('grep_search', { pattern: 'hit', max_matches_per_file: 2 }, deps));
    expect(perFile).toContain('Found 4 matches');
    expect(perFile).toContain('File: b.txt\nL1: hit 1\nL2: hit 2');
    const total = outputOf(await callTool('grep_search', { pattern: 'hit', total_max_matches: 160 }, deps));
    expect(total).toContain('Found 160 matches');
    expect(total).toContain('File: b.txt\nL1: hit 1');
  });

  it('skips binary files, .git, node_modules and .gitignore entries', async () => {
    const { deps } = await makeWorkspace({
      'bin.dat': Buffer.concat([Buffer.from('needle'), Buffer.from([0, 1, 2, 0])]),
      '.git/config': 'needle',
      'node_modules/p/index.js': 'needle',
      '.gitignore': 'generated/\n',
      'generated/x.ts': 'needle',
      'keep.ts': 'needle',
    });
    const output = outputOf(await callTool('grep_search', { pattern: 'needle', names_only: true }, deps));
    expect(output).toBe('1 file with matches for pattern "needle" in the workspace root:\nkeep.ts');
  });

  it('says when nothing matches', async () => {
    const { deps } = await makeWorkspace(FILES);
    expect(outputOf(await callTool('grep_search', { pattern: 'zzz' }, deps))).toBe(
      'No matches for pattern "zzz" in the workspace root.',
    );
  });

  it('refuses an invalid regular expression and other bad arguments', async () => {
    const { deps } = await makeWorkspace(FILES);
    const invalid = errorOf(await callTool('grep_search', { pattern: '(unclosed' }, deps));
    expect(invalid).toMatchObject({ kind: 'invalid_tool_params', message: expect.stringContaining('"pattern"') });
    const badExclude = errorOf(await callTool('grep_search', { pattern: 'a', exclude_pattern: '[' }, deps));
    expect(badExclude.message).toContain('exclude_pattern');
    expect(errorOf(await callTool('grep_search', { pattern: '' }, deps)).kind).toBe('invalid_tool_params');
    expect(errorOf(await callTool('grep_search', { pattern: 'a', max_matches_per_file: 0 }, deps)).kind).toBe(
      'invalid_tool_params',
    );
    expect(errorOf(await callTool('grep_search', { pattern: 'a', dir_path: 'src/a.ts' }, deps)).kind).toBe(
      'not_a_directory',
    );
  });

  it('stays inside the workspace: refuses outside dir_path and does not read through symlinks out', async () => {
    const { root, deps } = await makeWorkspace({ 'in.txt': 'needle inside' });
    const outside = await makeOutsideDir({ 'secret.txt': 'needle outside' });
    await fs.symlink(outside, path.join(root, 'out'));
    await fs.symlink(path.join(outside, 'secret.txt'), path.join(root, 'secret-link.txt'));
    for (const dir_path of ['..', '/etc', 'out']) {
      expect(errorOf(await callTool('grep_search', { pattern: 'x', dir_path }, deps)).kind).toBe(
        'path_outside_workspace',
      );
    }
    const output = outputOf(await callTool('grep_search', { pattern: 'needle' }, deps));
    expect(output).toContain('needle inside');
    expect(output).not.toContain('needle outside');
  });
});
