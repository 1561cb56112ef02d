import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, maybeRecordHistory, type Harness } from '../helpers/agent-harness';
import { diffCheckpoints, restoreWorkspace } from '../../src/checkpoints';
import { sessionTurns } from '../../src/client/turns';
import { tree } from '../helpers/workspace-tree';

let h: Harness;
beforeAll(async () => {
  h = await createHarness('checkpoints');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

/** A fresh folder holding checkpoint `ref`, as a restore on a machine that never saw the workspace writes it. */
async function restored(ref: string): Promise<Record<string, string>> {
  const dir = h.workspace();
  await restoreWorkspace(h.store, ref, dir);
  return tree(dir);
}

const START = { 'keep.txt': 'kept\n', 'edit.txt': 'old line\n', 'gone.txt': 'to be deleted\n' };

/** Turn 1 edits and creates, turn 2's shell command deletes, creates a binary file and changes a mode. */
const SCRIPT = [
  functionCallResponse([
    { name: 'replace', args: { file_path: 'edit.txt', old_string: 'old line', new_string: 'new line' } },
    { name: 'write_file', args: { file_path: 'made/by-edit.txt', content: 'written by turn 1\n' } },
  ]),
  functionCallResponse([
    {
      name: 'run_shell_command',
      args: { command: "rm gone.txt && printf '\\000\\001\\377' > bin.dat && chmod 755 keep.txt" },
    },
  ]),
  textResponse('done'),
];

test('every turn that changed files has a checkpoint that restores to the exact bytes it left', async () => {
  const ws = h.workspace(START);
  const initial = tree(ws);
  const run = await h.run(SCRIPT, { workspace: ws });
  expect(run.result?.terminateReason).toBe('completed');
  const records = run.result?.turnRecords ?? [];
  expect(records.map((r) => r.turn)).toEqual([1, 2, 3]);
  expect(records.map((r) => r.calls?.map((c) => c.name))).toEqual([
    ['replace', 'write_file'],
    ['run_shell_command'],
    undefined,
  ]);
  // Each turn's position in the conversation: right after the model's answer.
  expect(records.map((r) => r.transcript.length)).toEqual([2, 4, 6]);

  const [turn1, turn2, turn3] = records;
  expect(await restored(turn1.calls![0].before)).toEqual(initial);
  const afterTurn1 = {
    ...initial,
    'edit.txt': `644 ${Buffer.from('new line\n').toString('base64')}`,
    'made/by-edit.txt': `644 ${Buffer.from('written by turn 1\n').toString('base64')}`,
  };
  expect(await restored(turn1.checkpoint!)).toEqual(afterTurn1);
  // The checkpoint before turn 2's command is the workspace turn 1 left.
  expect(turn2.calls![0].before).toBe(turn1.checkpoint);
  expect(await restored(turn2.checkpoint!)).toEqual(tree(ws));
  expect(turn3.checkpoint).toBeUndefined();

  // The shell command's changes are in the checkpoints, as the diff of its turn shows.
  expect(await diffCheckpoints(h.store, turn2.calls![0].before, turn2.checkpoint!)).toEqual({
    added: ['bin.dat'],
    modified: ['keep.txt'],
    deleted: ['gone.txt'],
  });
  // Back to turn 1 in place: byte for byte, the later files gone, the mode back.
  await restoreWorkspace(h.store, turn1.checkpoint!, ws);
  expect(tree(ws)).toEqual(afterTurn1);

  // The status query and the stream name the checkpoints.
  expect(run.status.checkpoints).toEqual([
    { turn: 1, checkpoint: turn1.checkpoint },
    { turn: 2, checkpoint: turn2.checkpoint },
    { turn: 3, checkpoint: turn2.checkpoint },
  ]);
  const named = run.events.filter((e) => e.type === 'checkpoint');
  expect(named.map((e) => e.type === 'checkpoint' && [e.turn, e.checkpoint])).toEqual([
    [1, turn1.checkpoint],
    [2, turn2.checkpoint],
  ]);
  // The client's listing: a prompt run alone is its own session, turns from 1, which call changed what.
  const listed = await sessionTurns(h.env.client, run.workflowId);
  expect(listed.turns.map((t) => [t.turn, t.promptId, t.checkpoint])).toEqual([
    [1, run.workflowId, turn1.checkpoint],
    [2, run.workflowId, turn2.checkpoint],
    [3, run.workflowId, turn2.checkpoint],
  ]);
  const [replace, write] = listed.turns[0].calls;
  expect(await diffCheckpoints(h.store, replace.before, replace.after!)).toMatchObject({ modified: ['edit.txt'] });
  expect(await diffCheckpoints(h.store, write.before, write.after!)).toMatchObject({ added: ['made/by-edit.txt'] });
  await maybeRecordHistory(h, run.workflowId, 'workspace-checkpoints');
});

test('general.checkpointing.enabled false takes no checkpoint (and the turns are still recorded)', async () => {
  const ws = h.workspace(START);
  const run = await h.run(SCRIPT, { workspace: ws, checkpointing: { enabled: false } });
  expect(run.result?.terminateReason).toBe('completed');
  expect(run.result?.turnRecords?.map((r) => [r.turn, r.calls, r.checkpoint])).toEqual([
    [1, undefined, undefined],
    [2, undefined, undefined],
    [3, undefined, undefined],
  ]);
  const history = await h.env.client.workflow.getHandle(run.workflowId).fetchHistory();
  const scheduled = (history.events ?? []).filter(
    (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'checkpointWorkspace',
  );
  expect(scheduled).toHaveLength(0);
  expect(run.events.some((e) => e.type === 'checkpoint')).toBe(false);
});
