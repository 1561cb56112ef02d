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

const SOURCE = 'function a() {\n  return 1;\n}\n\nfunction b() {\n  return 1;\n}\n';

describe('replace', () => {
  it('replaces the single occurrence of old_string', async () => {
    const { deps, read } = await makeWorkspace({ 'a.js': SOURCE });
    const args = {
      file_path: 'a.js',
      instruction: 'a returns 2',
      old_string: 'a() {\n  return 1;',
      new_string: 'a() {\n  return 2;',
    };
    expect(outputOf(await callTool('replace', args, deps))).toBe('Replaced 1 occurrence of old_string in a.js.');
    expect(await read('a.js')).toBe(SOURCE.replace('return 1', 'return 2'));
  });

  it('reports no occurrence, and leaves the file alone', async () => {
    const { deps, read } = await makeWorkspace({ 'a.js': SOURCE });
    const error = errorOf(
      await callTool('replace', { file_path: 'a.js', old_string: 'return 3;', new_string: 'x' }, deps),
    );
    expect(error.kind).toBe('edit_no_occurrence_found');
    expect(error.message).toContain('read_file');
    expect(await read('a.js')).toBe(SOURCE);
  });

  it('refuses an ambiguous old_string and gives the count', async () => {
    const { deps, read } = await makeWorkspace({ 'a.js': SOURCE });
    const error = errorOf(
      await callTool('replace', { file_path: 'a.js', old_string: 'return 1;', new_string: 'return 2;' }, deps),
    );
    expect(error.kind).toBe('edit_expected_occurrence_mismatch');
    expect(error.message).toContain('found 2');
    expect(error.message).toContain('allow_multiple');
    expect(await read('a.js')).toBe(SOURCE);
  });

  it('replaces every occurrence with allow_multiple', async () => {
    const { deps, read } = await makeWorkspace({ 'a.js': SOURCE });
    const args = { file_path: 'a.js', old_string: 'return 1;', new_string: 'return 2;', allow_multiple: true };
    expect(outputOf(await callTool('replace', args, deps))).toContain('Replaced 2 occurrences');
    expect(await read('a.js')).toBe(SOURCE.replace(/return 1/g, 'return 2'));
  });

  it('checks the count against expected_replacements', async () => {
    const { deps, read } = await makeWorkspace({ 'a.js': SOURCE });
    const wrong = errorOf(
      await callTool(
        'replace',
        { file_path: 'a.js', old_string: 'return 1;', new_string: 'x', expected_replacements: 3 },
        deps,
      ),
    );
    expect(wrong.kind).toBe('edit_expected_occurrence_mismatch');
    expect(wrong.message).toContain('Expected 3 occurrences');
    expect(wrong.message).toContain('found 2');
    const right = await callTool(
      'replace',
      { file_path: 'a.js', old_string: 'return 1;', new_string: 'return 0;', expected_replacements: 2 },
      deps,
    );
    expect(outputOf(right)).toContain('Replaced 2 occurrences');
    expect(await read('a.js')).not.toContain('return 1');
  });

  it('refuses an edit that changes nothing', async () => {
    const { deps } = await makeWorkspace({ 'a.js': SOURCE });
    const error = errorOf(
      await callTool('replace', { file_path: 'a.js', old_string: 'function a', new_string: 'function a' }, deps),
    );
    expect(error.kind).toBe('edit_no_change');
  });

  it('creates a missing file when old_string is empty', async () => {
    const { deps, read } = await makeWorkspace();
    expect(
      outputOf(await callTool('replace', { file_path: 'new/b.txt', old_string: '', new_string: 'hello\n' }, deps)),
    ).toBe('Created new/b.txt.');
    expect(await read('new/b.txt')).toBe('hello\n');
  });

  it('refuses an empty old_string on an existing file', async () => {
    const { deps } = await makeWorkspace({ 'a.js': SOURCE });
    const error = errorOf(await callTool('replace', { file_path: 'a.js', old_string: '', new_string: 'x' }, deps));
    expect(error.kind).toBe('attempt_to_create_existing_file');
  });

  it('reports a missing file', async () => {
    const { deps } = await makeWorkspace();
    const error = errorOf(await callTool('replace', { file_path: 'gone.js', old_string: 'a', new_string: 'b' }, deps));
    expect(error).toMatchObject({ kind: 'file_not_found', message: expect.stringContaining('gone.js') });
  });

  it('matches CRLF files on LF text and keeps CRLF line endings', async () => {
    const { deps, root } = await makeWorkspace({ 'w.txt': 'one\r\ntwo\r\nthree\r\n' });
    outputOf(
      await callTool('replace', { file_path: 'w.txt', old_string: 'one\ntwo', new_string: 'uno\ndos\nextra' }, deps),
    );
    expect(await fs.readFile(path.join(root, 'w.txt'), 'utf8')).toBe('uno\r\ndos\r\nextra\r\nthree\r\n');
  });

  it('treats old_string and new_string literally', async () => {
    const { deps, read } = await makeWorkspace({ 'r.txt': 'price: a.b (x)\n' });
    outputOf(await callTool('replace', { file_path: 'r.txt', old_string: 'a.b (x)', new_string: '$& $1 $$' }, deps));
    expect(await read('r.txt')).toBe('price: $& $1 $$\n');
    const regexLike = errorOf(
      await callTool('replace', { file_path: 'r.txt', old_string: 'p.ice', new_string: 'x' }, deps),
    );
    expect(regexLike.kind).toBe('edit_no_occurrence_found');
  });

  it('keeps a UTF-8 byte-order mark', async () => {
    const { deps, root } = await makeWorkspace({ 'bom.txt': Buffer.from('\uFEFFhello world\n', 'utf8') });
    outputOf(await callTool('replace', { file_path: 'bom.txt', old_string: 'world', new_string: 'there' }, deps));
    const bytes = await fs.readFile(path.join(root, 'bom.txt'));
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(bytes.subarray(3).toString('utf8')).toBe('hello there\n');
  });

  it('refuses bad arguments', async () => {
    const { deps } = await makeWorkspace({ 'a.js': SOURCE });
    expect(errorOf(await callTool('replace', { file_path: 'a.js', old_string: 'a' }, deps)).kind).toBe(
      'invalid_tool_params',
    );
    const zero = errorOf(
      await callTool(
        'replace',
        { file_path: 'a.js', old_string: 'a', new_string: 'b', expected_replacements: 0 },
        deps,
      ),
    );
    expect(zero.kind).toBe('invalid_tool_params');
    const notBool = errorOf(
      await callTool('replace', { file_path: 'a.js', old_string: 'a', new_string: 'b', allow_multiple: 'yes' }, deps),
    );
    expect(notBool.message).toContain('allow_multiple');
  });

  it('refuses paths outside the workspace, directly or through symlinks', async () => {
    const { root, deps } = await makeWorkspace();
    const outside = await makeOutsideDir({ 'target.txt': 'keep me' });
    await fs.symlink(path.join(outside, 'target.txt'), path.join(root, 'link.txt'));
    await fs.symlink(outside, path.join(root, 'out'));
    for (const file_path of ['../target.txt', '/etc/passwd', 'link.txt', 'out/target.txt', 'out/new.txt']) {
      const result = await callTool(
        'replace',
        { file_path, old_string: file_path === 'out/new.txt' ? '' : 'keep', new_string: 'x' },
        deps,
      );
      expect(errorOf(result).kind).toBe('path_outside_workspace');
    }
    expect(await fs.readdir(outside)).toEqual(['target.txt']);
    expect(await fs.readFile(path.join(outside, 'target.txt'), 'utf8')).toBe('keep me');
  });
});
