import { functionCallResponse, textResponse, type FunctionCallSpec, type ScriptLine } from '../../src/fake-gemini';

/**
 * The crash matrix's scripted session: two messages, 20 model turns, with writes, replacements and
 * shell commands whose side effects can be counted. Every shell command appends one line of its own
 * to `effects.log` (a second run shows as a duplicate line), and two of them increment `count.txt`
 * (a second run shows as a wrong number). The log line is each command's last effect, and output
 * comes after it: a command whose worker died keeps running in its own process group, but its
 * stdout is gone. So a command's line in the log means that all of its effects happened.
 *
 * Served by turn (the fake's `byTurn` mode), so a model request retried after a crash gets the same
 * answer; every answer waits 100 ms, so that random kills also land in model calls.
 */
export const CRASH_MESSAGES = ['Set up the project.', 'Now finish it.'];

const DELAY = { delayMs: 100 };
const call = (calls: FunctionCallSpec | FunctionCallSpec[]) => functionCallResponse(calls, DELAY);
const write = (file_path: string, content: string) => ({ name: 'write_file', args: { file_path, content } });
const replace = (file_path: string, old_string: string, new_string: string) => ({
  name: 'replace',
  args: { file_path, old_string, new_string },
});
const shell = (command: string) => ({ name: 'run_shell_command', args: { command } });
const count = 'n=$(cat count.txt 2>/dev/null || echo 0); echo $((n+1)) > count.txt';

export const CRASH_SCRIPT: ScriptLine[] = [
  // Message 1: turns 0-11.
  call(write('notes.md', '# Notes\n')),
  call(shell("sleep 0.3; echo 'shell-1 setup' >> effects.log")),
  call(write('src/app.js', 'const x = 1;\nmodule.exports = { x };\n')),
  // The new text contains the old: a blind second run would insert `const y` twice.
  call(replace('src/app.js', 'const x = 1;', 'const x = 1;\nconst y = 2;')),
  call(shell("sleep 0.3; wc -l < src/app.js > build.txt; echo 'shell-2 build' >> effects.log; cat build.txt")),
  call({ name: 'read_file', args: { file_path: 'src/app.js' } }),
  call(replace('notes.md', '# Notes', '# Project notes')),
  call(shell(`${count}; echo 'shell-3 count' >> effects.log`)),
  call([write('a.txt', 'alpha\n'), write('b.txt', 'beta\n')]),
  call(shell("sleep 0.2; cat a.txt b.txt > ab.txt; echo 'shell-4 concat' >> effects.log; cat ab.txt")),
  call({ name: 'list_directory', args: { dir_path: '.' } }),
  textResponse('The project is set up.', DELAY),
  // Message 2: turns 12-19.
  call(replace('src/app.js', 'module.exports = { x };', 'module.exports = { x, y };')),
  call(shell("sleep 0.3; echo 'shell-5 test' >> effects.log; grep -c const src/app.js")),
  call(write('CHANGELOG.md', '## 0.1.0\n')),
  call(shell(`${count}; echo 'shell-6 count' >> effects.log`)),
  call(replace('CHANGELOG.md', '## 0.1.0', '## 0.1.0\n\n- y exported')),
  call({ name: 'read_file', args: { file_path: 'notes.md' } }),
  call(shell("sleep 0.2; echo 'shell-7 done' >> effects.log")),
  textResponse('All done.', DELAY),
];

/** The workspace every run must end with, whatever was killed on the way. */
export const EXPECTED_WORKSPACE: Record<string, string> = {
  'notes.md': '# Project notes\n',
  'src/app.js': 'const x = 1;\nconst y = 2;\nmodule.exports = { x, y };\n',
  'build.txt': '3\n',
  'count.txt': '2\n',
  'a.txt': 'alpha\n',
  'b.txt': 'beta\n',
  'ab.txt': 'alpha\nbeta\n',
  'CHANGELOG.md': '## 0.1.0\n\n- y exported\n',
  'effects.log': [
    'shell-1 setup',
    'shell-2 build',
    'shell-3 count',
    'shell-4 concat',
    'shell-5 test',
    'shell-6 count',
    'shell-7 done',
  ]
    .map((l) => `${l}\n`)
    .join(''),
};

/** Files each shell command writes besides `effects.log`, by its log line. */
export const SHELL_FILES: Record<string, string[]> = {
  'shell-2 build': ['build.txt'],
  'shell-3 count': ['count.txt'],
  'shell-4 concat': ['ab.txt'],
  'shell-6 count': ['count.txt'],
};

/** The log line a scripted shell command appends. */
export function logLineOf(command: string): string | undefined {
  return /echo '(shell-\d [a-z]+)' >> effects\.log/.exec(command)?.[1];
}
