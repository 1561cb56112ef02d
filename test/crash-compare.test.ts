import type { Content } from '@google/genai';
import { compareRuns } from './helpers/crash-compare';
import type { SessionOutcome } from './helpers/crash-run';

/** The crash matrix's comparison, on a hand-made case: a shell command killed before it started. */
const command = "echo built > build.txt; echo 'shell-2 build' >> effects.log";
const call = (id: string, name: string, args: Record<string, unknown>): Content => ({
  role: 'model',
  parts: [{ functionCall: { id, name, args } }],
});
const answer = (id: string, name: string, output: string): Content => ({
  role: 'user',
  parts: [{ functionResponse: { id, name, response: { output } } }],
});

function outcome(shellOutput: string, listing: string, workspace: Record<string, string>): SessionOutcome {
  const transcript = [
    call('c1', 'run_shell_command', { command }),
    answer('c1', 'run_shell_command', shellOutput),
    call('c2', 'list_directory', { dir_path: '.' }),
    answer('c2', 'list_directory', listing),
  ];
  return { transcript, workspace, unexpectedModelCalls: [] } as unknown as SessionOutcome;
}

const reference = outcome('Output: ok', 'a.txt\nbuild.txt\neffects.log', {
  'build.txt': 'built\n',
  'effects.log': 'shell-2 build\n',
});
const unknown = 'Outcome unknown: the previous attempt was interrupted (the worker stopped while the command ran).';

test('a command that never ran may leave its files and their listing out, nothing else', () => {
  const run = outcome(unknown, 'a.txt\neffects.log', { 'effects.log': '' });
  expect(compareRuns(reference, run).failures).toEqual([]);
  expect(compareRuns(reference, run).resumed).toEqual([
    { callId: 'c1', name: 'run_shell_command', kind: 'outcome unknown', ran: false },
  ]);
});

test('a listing that differs in anything else is still a failure', () => {
  const run = outcome(unknown, 'a.txt\neffects.log\nstray.txt', { 'effects.log': '' });
  expect(compareRuns(reference, run).failures).toHaveLength(1);
});

test('without an interrupted command, a different listing is a failure', () => {
  const run = outcome('Output: ok', 'a.txt\neffects.log', { 'build.txt': 'built\n', 'effects.log': 'shell-2 build\n' });
  expect(compareRuns(reference, run).failures).toHaveLength(1);
});
