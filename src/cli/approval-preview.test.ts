import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileTranscriptStore } from '../store/file-store';
import { expandMarkers, previewCall } from './approval-preview';

let ws: string;
beforeEach(() => {
  ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'da-preview-')));
});
afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

const put = (file: string, content: string) => fs.writeFileSync(path.join(ws, file), content);

test('write_file of a new file diffs against /dev/null', async () => {
  const preview = await previewCall('write_file', { file_path: 'hello.txt', content: 'hi\nthere\n' }, ws);
  expect(preview).toBe(
    ['hello.txt (new file)', '--- /dev/null', '+++ b/hello.txt', '@@ -0,0 +1,2 @@', '+hi', '+there'].join('\n'),
  );
});

test('write_file over an existing file diffs against its current content, resolved like the tools do', async () => {
  fs.mkdirSync(path.join(ws, 'src'));
  put('src/a.txt', 'one\ntwo\nthree\n');
  const preview = await previewCall(
    'write_file',
    { file_path: path.join(ws, 'src', '..', 'src', 'a.txt'), content: 'one\n2\nthree\n' },
    ws,
  );
  expect(preview).toContain('--- a/src/a.txt\n+++ b/src/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three');
  expect(await previewCall('write_file', { file_path: 'src/a.txt', content: 'one\ntwo\nthree\n' }, ws)).toContain(
    'no change',
  );
});

test('write_file says why it cannot show a diff: outside the workspace, a directory, a missing workspace', async () => {
  expect(await previewCall('write_file', { file_path: '../escape.txt', content: 'x' }, ws)).toMatch(
    /cannot read the current file: .*outside the workspace/,
  );
  fs.mkdirSync(path.join(ws, 'dir'));
  expect(await previewCall('write_file', { file_path: 'dir', content: 'x' }, ws)).toMatch(
    /^dir: not a file\nnew content:\nx$/,
  );
  expect(await previewCall('write_file', { file_path: 'a', content: 'x' }, path.join(ws, 'gone'))).toMatch(
    /cannot read the current file/,
  );
});

test('write_file diffs colour their lines on request', async () => {
  const preview = await previewCall('write_file', { file_path: 'c.txt', content: 'new\n' }, ws, { color: true });
  expect(preview).toContain('\x1b[32m+new\x1b[0m');
});

test('replace applies the first occurrence, or all with allow_multiple, and notes an ambiguous match', async () => {
  put('r.txt', 'a = 1\nb = 1\nc = 2\n');
  const first = await previewCall(
    'replace',
    { file_path: 'r.txt', old_string: '= 1', new_string: '= 9', instruction: 'bump' },
    ws,
  );
  expect(first).toMatch(/^bump\nold_string occurs 2 times in r\.txt; without allow_multiple the call will fail/);
  expect(first).toContain('-a = 1\n+a = 9\n b = 1\n');
  const all = await previewCall(
    'replace',
    { file_path: 'r.txt', old_string: '= 1', new_string: '= 9', allow_multiple: true },
    ws,
  );
  expect(all).toContain('-a = 1\n-b = 1\n+a = 9\n+b = 9\n');
  expect(all).not.toContain('occurs');
});

test('replace keeps $ patterns literal and reports what the tool would refuse', async () => {
  put('r.txt', 'price\n');
  expect(await previewCall('replace', { file_path: 'r.txt', old_string: 'price', new_string: "$& $'" }, ws)).toContain(
    "-price\n+$& $'",
  );
  expect(await previewCall('replace', { file_path: 'r.txt', old_string: 'nope', new_string: 'x' }, ws)).toMatch(
    /does not occur in r\.txt: the call will fail/,
  );
  expect(await previewCall('replace', { file_path: 'r.txt', old_string: '', new_string: 'x' }, ws)).toMatch(
    /already exists/,
  );
  expect(await previewCall('replace', { file_path: 'new.txt', old_string: 'a', new_string: 'x' }, ws)).toMatch(
    /does not exist/,
  );
  expect(await previewCall('replace', { file_path: 'new.txt', old_string: '', new_string: 'made\n' }, ws)).toContain(
    'new.txt (new file)\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+made',
  );
});

test('shell commands show the command and directory; other tools their arguments', async () => {
  expect(await previewCall('run_shell_command', { command: 'ls -la', dir_path: 'src', description: 'list' }, ws)).toBe(
    `$ ls -la\n  in src (workspace ${ws})\n  list`,
  );
  expect(await previewCall('run_shell_command', { command: 'pwd' }, ws)).toBe(`$ pwd\n  in . (workspace ${ws})`);
  expect(await previewCall('web_fetch', { prompt: 'read https://x' }, ws)).toBe('{\n  "prompt": "read https://x"\n}');
});

describe('blob markers', () => {
  const long = `${'line of text\n'.repeat(300)}`;
  const marker = (ref: string) => ({ $blob: ref, size: long.length, preview: long.slice(0, 200) });

  test('without the store, the preview is shown and the full size is given', async () => {
    const preview = await previewCall('write_file', { file_path: 'big.txt', content: marker('sha256:missing') }, ws);
    expect(preview).toContain('"content": "line of text\\nline of text');
    expect(preview).toContain(
      `(content: not shown in full: this argument is ${long.length} characters long and the transcript store`,
    );
    expect(preview).not.toContain('@@');
  });

  test('with the store, markers are resolved and diffed in full', async () => {
    const store = new FileTranscriptStore(path.join(ws, '.store'));
    const ref = await store.putBlob(long);
    const preview = await previewCall('write_file', { file_path: 'big.txt', content: marker(ref) }, ws, { store });
    expect(preview).toContain('@@ -0,0 +1,300 @@');
    expect(preview).not.toContain('not shown in full');
    const expanded = await expandMarkers({ edits: [marker(ref), marker('sha256:nope')] }, store);
    expect(expanded.resolved).toBe(1);
    expect([...expanded.partial.keys()]).toEqual(['edits.1']);
    expect(expanded.value).toEqual({ edits: [long, long.slice(0, 200)] });
  });
});
