import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { callTool, errorOf, makeWorkspace, removeWorkspaces } from '../../test/helpers/tool-harness';

afterAll(removeWorkspaces);

// A named pipe with no writer: opening it for reading without O_NONBLOCK would wait forever, so a
// pass here also shows that nothing blocked on it.
test('read_file, write_file and replace on a named pipe say what it is, with the path as given', async () => {
  const { root, deps } = await makeWorkspace({ 'a.txt': 'a' });
  execFileSync('mkfifo', [path.join(root, 'pipe')]);
  const calls = [
    callTool('read_file', { file_path: 'pipe' }, deps),
    callTool('write_file', { file_path: 'pipe', content: 'x' }, deps),
    callTool('replace', { file_path: 'pipe', old_string: 'a', new_string: 'b' }, deps),
  ];
  for (const result of await Promise.all(calls)) {
    const error = errorOf(result);
    expect(error.kind).toBe('not_a_file');
    expect(error.message).toBe(
      'pipe is not a regular file (a named pipe, socket or device); the file tools read and write regular files only.',
    );
  }
});
