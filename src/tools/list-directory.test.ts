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

describe('list_directory', () => {
  it('lists directories first, then files, each sorted by name', async () => {
    const { deps } = await makeWorkspace({ 'b.txt': '', 'a.txt': '', 'zeta/x': '', 'alpha/y': '', '.env.example': '' });
    const output = outputOf(await callTool('list_directory', { dir_path: '.' }, deps));
    expect(output).toBe('Directory listing for .:\n[DIR] alpha\n[DIR] zeta\n.env.example\na.txt\nb.txt');
  });

  it('lists a subdirectory given by relative or absolute path', async () => {
    const { root, deps } = await makeWorkspace({ 'src/a.ts': '', 'src/lib/b.ts': '' });
    const expected = 'Directory listing for src:\n[DIR] lib\na.ts';
    expect(outputOf(await callTool('list_directory', { dir_path: 'src' }, deps))).toBe(expected);
    expect(outputOf(await callTool('list_directory', { dir_path: path.join(root, 'src') }, deps))).toBe(expected);
  });

  it('leaves out entries matching the ignore globs and counts them', async () => {
    const { deps } = await makeWorkspace({ 'a.log': '', 'b.log': '', 'c.ts': '', 'dist/x': '' });
    const output = outputOf(await callTool('list_directory', { dir_path: '.', ignore: ['*.log', 'dist'] }, deps));
    expect(output).toBe('Directory listing for .:\nc.ts\n(3 entries hidden by ignore rules)');
  });

  it('honours the root .gitignore unless told not to, and accepts unknown filtering options', async () => {
    const { deps } = await makeWorkspace({
      '.gitignore': 'build/\n*.tmp\n',
      'build/out.js': '',
      'x.tmp': '',
      'src.ts': '',
      '.git/HEAD': '',
    });
    const filtered = outputOf(await callTool('list_directory', { dir_path: '.' }, deps));
    expect(filtered).toBe('Directory listing for .:\n.gitignore\nsrc.ts\n(3 entries hidden by ignore rules)');
    const options = { respect_git_ignore: false, respect_gemini_ignore: true, something_new: 1 };
    const all = outputOf(await callTool('list_directory', { dir_path: '.', file_filtering_options: options }, deps));
    expect(all).toBe('Directory listing for .:\n[DIR] .git\n[DIR] build\n.gitignore\nsrc.ts\nx.tmp');
  });

  it('says when a directory is empty', async () => {
    const { root, deps } = await makeWorkspace();
    await fs.mkdir(path.join(root, 'empty'));
    expect(outputOf(await callTool('list_directory', { dir_path: 'empty' }, deps))).toBe('Directory empty is empty.');
  });

  it('reports a missing directory or a file in its place', async () => {
    const { deps } = await makeWorkspace({ 'f.txt': '' });
    expect(errorOf(await callTool('list_directory', { dir_path: 'nope' }, deps)).kind).toBe('file_not_found');
    expect(errorOf(await callTool('list_directory', { dir_path: 'f.txt' }, deps)).kind).toBe('not_a_directory');
  });

  it('refuses bad arguments', async () => {
    const { deps } = await makeWorkspace();
    expect(errorOf(await callTool('list_directory', {}, deps)).kind).toBe('invalid_tool_params');
    expect(errorOf(await callTool('list_directory', { dir_path: '.', ignore: '*.log' }, deps)).kind).toBe(
      'invalid_tool_params',
    );
  });

  it('refuses directories outside the workspace, directly or through a symlink', async () => {
    const { root, deps } = await makeWorkspace();
    const outside = await makeOutsideDir({ 'secret.txt': '' });
    await fs.symlink(outside, path.join(root, 'out'));
    for (const dir_path of ['..', '/etc', 'out', outside]) {
      expect(errorOf(await callTool('list_directory', { dir_path }, deps)).kind).toBe('path_outside_workspace');
    }
  });
});
