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

const numbered = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('read_file', () => {
  it('returns a small file whole, byte for byte: final newline, no final newline, CRLF, blank last lines', async () => {
    const files = {
      'src/a.ts': 'const a = 1;\nexport { a };\n',
      'no-newline.txt': 'one\ntwo',
      'crlf.txt': 'one\r\ntwo\r\n',
      'blank-tail.txt': 'one\n\n\n',
      'newline-only.txt': '\n',
    };
    const { deps } = await makeWorkspace(files);
    for (const [file, text] of Object.entries(files))
      expect(outputOf(await callTool('read_file', { file_path: file }, deps))).toBe(text);
  });

  it('accepts an absolute path inside the workspace', async () => {
    const { root, deps } = await makeWorkspace({ 'a.txt': 'x' });
    expect(outputOf(await callTool('read_file', { file_path: path.join(root, 'a.txt') }, deps))).toBe('x');
  });

  it('returns a line range with start_line and end_line, and says where it stopped', async () => {
    const { deps } = await makeWorkspace({ 'f.txt': numbered(10) });
    const output = outputOf(await callTool('read_file', { file_path: 'f.txt', start_line: 3, end_line: 5 }, deps));
    expect(output).toContain('lines 3-5 of 10');
    expect(output).toContain('start_line: 6');
    expect(output.split('\n\n')[1]).toBe('line 3\nline 4\nline 5');
    const tail = outputOf(await callTool('read_file', { file_path: 'f.txt', start_line: 9 }, deps));
    expect(tail).toContain('lines 9-10 of 10');
    expect(tail).not.toContain('To continue');
    expect(tail.endsWith('line 9\nline 10\n')).toBe(true);
  });

  it('accepts the older offset and limit parameters', async () => {
    const { deps } = await makeWorkspace({ 'f.txt': numbered(10) });
    const output = outputOf(await callTool('read_file', { file_path: 'f.txt', offset: 2, limit: 2 }, deps));
    expect(output.split('\n\n')[1]).toBe('line 3\nline 4');
    expect(output).toContain('offset: 4');
  });

  it('stops after 2000 lines and tells the model how to read on', async () => {
    const { deps } = await makeWorkspace({ 'big.txt': numbered(2500) });
    const first = outputOf(await callTool('read_file', { file_path: 'big.txt' }, deps));
    expect(first).toContain('lines 1-2000 of 2500');
    expect(first).toContain('start_line: 2001');
    expect(first.endsWith('line 2000')).toBe(true);
    expect(first).not.toContain('line 2001');
    const next = outputOf(await callTool('read_file', { file_path: 'big.txt', start_line: 2001 }, deps));
    expect(next).toContain('lines 2001-2500 of 2500');
    expect(next.endsWith('line 2500\n')).toBe(true);
    const wide = outputOf(await callTool('read_file', { file_path: 'big.txt', start_line: 1, end_line: 2500 }, deps));
    expect(wide).toContain('lines 1-2000 of 2500');
  });

  it('cuts lines longer than 2000 characters and says so', async () => {
    const { deps } = await makeWorkspace({ 'min.js': `${'x'.repeat(5000)}\nshort\n` });
    const output = outputOf(await callTool('read_file', { file_path: 'min.js' }, deps));
    expect(output).toContain('1 line(s) longer than 2000 characters were cut');
    expect(output).toContain(`${'x'.repeat(2000)}... [line cut at 2000 characters]\nshort`);
    expect(output).not.toContain('x'.repeat(2001));
  });

  it('returns an empty file as empty output', async () => {
    const { deps } = await makeWorkspace({ 'empty.txt': '' });
    expect(outputOf(await callTool('read_file', { file_path: 'empty.txt' }, deps))).toBe('');
  });

  it('refuses files over 20 MB', async () => {
    const { root, deps } = await makeWorkspace();
    await fs.writeFile(path.join(root, 'huge.log'), '');
    await fs.truncate(path.join(root, 'huge.log'), 21 * 1024 * 1024);
    const error = errorOf(await callTool('read_file', { file_path: 'huge.log' }, deps));
    expect(error.kind).toBe('file_too_large');
    expect(error.message).toContain('20 MB');
  });

  it('refuses binary files that are not media', async () => {
    const { deps } = await makeWorkspace({ 'data.bin': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13, 1, 2, 3]) });
    const error = errorOf(await callTool('read_file', { file_path: 'data.bin' }, deps));
    expect(error.message).toContain('binary');
  });

  it('returns images, PDFs and audio whole as media with their MIME type, and says so to the model', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13, 1, 2, 3]);
    const pdf = Buffer.from('%PDF-1.4\n%\xe2\xe3\n1 0 obj\n', 'latin1');
    const mp3 = Buffer.from([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 0x0f, 0xff, 0xfb]);
    const { deps } = await makeWorkspace({ 'img/Logo.PNG': png, 'doc.pdf': pdf, 'a.mp3': mp3 });
    const cases: [string, Buffer, string][] = [
      ['img/Logo.PNG', png, 'image/png'],
      ['doc.pdf', pdf, 'application/pdf'],
      ['a.mp3', mp3, 'audio/mpeg'],
    ];
    for (const [file, bytes, mimeType] of cases) {
      const result = await callTool('read_file', { file_path: file, start_line: 2 }, deps);
      if (!result.ok) throw new Error(result.error.message);
      expect(result.media).toEqual({ mimeType, base64: bytes.toString('base64'), path: file });
      expect(result.output).toContain(`${file} (${mimeType}, ${bytes.length} bytes)`);
      expect(result.output).not.toContain(bytes.toString('base64'));
    }
  });

  it('reads an audio name on a text file as text; refuses empty media and audio formats the model cannot take', async () => {
    const { deps } = await makeWorkspace({ 'notes.wav': 'not audio\n', 'empty.png': '', 'song.m4a': 'x\0y' });
    expect(outputOf(await callTool('read_file', { file_path: 'notes.wav' }, deps))).toBe('not audio\n');
    expect(errorOf(await callTool('read_file', { file_path: 'empty.png' }, deps)).message).toMatch(/empty image/);
    expect(errorOf(await callTool('read_file', { file_path: 'song.m4a' }, deps)).message).toMatch(/MP3, WAV/);
  });

  it('refuses media over 20 MB like any other file', async () => {
    const { root, deps } = await makeWorkspace({});
    await fs.writeFile(path.join(root, 'big.png'), Buffer.alloc(20 * 1024 * 1024 + 1, 1));
    expect(errorOf(await callTool('read_file', { file_path: 'big.png' }, deps)).kind).toBe('file_too_large');
  });

  it('reports a missing file, a directory, and ranges that make no sense', async () => {
    const { deps } = await makeWorkspace({ 'f.txt': numbered(3), 'dir/x': '' });
    expect(errorOf(await callTool('read_file', { file_path: 'nope.txt' }, deps))).toMatchObject({
      kind: 'file_not_found',
      message: expect.stringContaining('nope.txt'),
    });
    expect(errorOf(await callTool('read_file', { file_path: 'dir' }, deps)).kind).toBe('not_a_file');
    const pastEnd = errorOf(await callTool('read_file', { file_path: 'f.txt', start_line: 7 }, deps));
    expect(pastEnd).toMatchObject({ kind: 'invalid_tool_params', message: expect.stringContaining('has 3 lines') });
    const backwards = errorOf(await callTool('read_file', { file_path: 'f.txt', start_line: 3, end_line: 2 }, deps));
    expect(backwards.kind).toBe('invalid_tool_params');
    const mixed = errorOf(await callTool('read_file', { file_path: 'f.txt', start_line: 1, limit: 2 }, deps));
    expect(mixed.kind).toBe('invalid_tool_params');
  });

  it('refuses bad arguments', async () => {
    const { deps } = await makeWorkspace();
    expect(errorOf(await callTool('read_file', {}, deps)).kind).toBe('invalid_tool_params');
    expect(errorOf(await callTool('read_file', { file_path: 'a', start_line: 0 }, deps)).kind).toBe(
      'invalid_tool_params',
    );
    expect(errorOf(await callTool('read_file', { file_path: 'a', end_line: 1.5 }, deps)).kind).toBe(
      'invalid_tool_params',
    );
  });

  it('refuses paths outside the workspace, directly or through symlinks', async () => {
    const { root, deps } = await makeWorkspace();
    const outside = await makeOutsideDir({ 'secret.txt': 'top secret' });
    await fs.symlink(path.join(outside, 'secret.txt'), path.join(root, 'link.txt'));
    await fs.symlink(outside, path.join(root, 'out'));
    for (const file_path of [
      '../secret.txt',
      '/etc/passwd',
      'link.txt',
      'out/secret.txt',
      path.join(outside, 'secret.txt'),
    ]) {
      const error = errorOf(await callTool('read_file', { file_path }, deps));
      expect(error.kind).toBe('path_outside_workspace');
      expect(error.message).not.toContain('top secret');
    }
  });
});
