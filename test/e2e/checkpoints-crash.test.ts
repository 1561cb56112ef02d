import * as fs from 'node:fs';
import * as path from 'node:path';
import { FakeGeminiServer, functionCallResponse, textResponse, type ScriptLine } from '../../src/fake-gemini';
import { restoreWorkspace } from '../../src/checkpoints';
import { FileTranscriptStore } from '../../src/store/file-store';
import type { PromptInput, PromptResult } from '../../src/workflows/api';
import { closeTestEnv, getTestEnv } from '../helpers/temporal-env';
import { exited, spawnWorker, waitFor } from '../helpers/processes';
import { startPromptOnWorkerProcess } from '../helpers/worker-prompt';
import { startedAttempts } from '../helpers/history-attempts';
import { tree } from '../helpers/workspace-tree';

const attempts = (events: Parameters<typeof startedAttempts>[0], type: string) =>
  startedAttempts(events, type).map((a) => a.attempt);

let fake: FakeGeminiServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});
afterAll(async () => {
  await closeTestEnv();
});

/**
 * A prompt on a worker process that is SIGKILLed once `inFlight` holds; a second worker with the same home (so the
 * same store and stat cache) finishes it. Returns the result, the history and a reader of the worker's store.
 */
async function killAndFinish(
  name: string,
  script: ScriptLine[],
  workspace: string,
  inFlight: (handle: { describe(): Promise<unknown> }) => Promise<boolean>,
  input: Partial<PromptInput> = {},
) {
  const env = await getTestEnv();
  const home = fs.mkdtempSync(path.join(env.tmpDir, `${name}-home-`));
  fake = await FakeGeminiServer.start({ script });
  const started = await startPromptOnWorkerProcess(env, {
    name,
    fakeUrl: fake.url,
    home,
    workspace,
    prompt: 'go',
    input,
  });
  await waitFor(() => inFlight(started.handle), 60_000, started.first.output);
  started.first.kill('SIGKILL');
  await exited(started.first);
  const second = spawnWorker(started.workerEnv);
  try {
    const result = (await started.handle.result()) as PromptResult;
    const history = await started.handle.fetchHistory();
    const store = new FileTranscriptStore(path.join(home, 'store'));
    const restored = async (ref: string) => {
      const dir = fs.mkdtempSync(path.join(env.tmpDir, `${name}-restored-`));
      await restoreWorkspace(store, ref, dir);
      return tree(dir);
    };
    return { result, events: history.events ?? [], restored };
  } finally {
    second.kill('SIGTERM');
    await exited(second);
  }
}

async function newWorkspace(name: string, files: Record<string, string>): Promise<string> {
  const env = await getTestEnv();
  const ws = fs.realpathSync(fs.mkdtempSync(path.join(env.tmpDir, `${name}-ws-`)));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    fs.writeFileSync(path.join(ws, rel), text);
  }
  return ws;
}

/** Whether the workflow has an attempt of `activityType` running (started, not finished). */
async function running(handle: { describe(): Promise<unknown> }, activityType: string): Promise<boolean> {
  const described = (await handle.describe()) as {
    raw: { pendingActivities?: { activityType?: { name?: string | null } | null; state?: unknown }[] | null };
  };
  return (described.raw.pendingActivities ?? []).some(
    (a) => a.activityType?.name === activityType && (a.state === 2 || a.state === 'PENDING_ACTIVITY_STATE_STARTED'),
  );
}

test('a worker SIGKILLed mid-wave: one record per turn, the checkpoints restore before and after the command', async () => {
  const ws = await newWorkspace('ckpt-kill-wave', { 'keep.txt': 'kept\n', 'gone.txt': 'to be deleted\n' });
  const before = tree(ws);
  // The command's first step lands, then the worker dies while it sleeps; the command runs on in its spawner.
  const command = "echo started > marker.txt; sleep 4; rm gone.txt; printf 'made\\n' > made.txt";
  const { result, events, restored } = await killAndFinish(
    'ckpt-kill-wave',
    [functionCallResponse({ name: 'run_shell_command', args: { command } }), textResponse('Handled.')],
    ws,
    async () => fs.existsSync(path.join(ws, 'marker.txt')),
    { toolHeartbeatTimeoutMs: 30_000 },
  );
  expect(result.terminateReason).toBe('completed');
  expect(attempts(events, 'runTool').at(-1)).toBe(2);
  // The "before" checkpoint was taken once, before the crash, and not again.
  expect(attempts(events, 'checkpointWorkspace')).toEqual([1, 1]);
  const records = result.turnRecords ?? [];
  expect(records.map((r) => [r.turn, r.calls?.map((c) => c.name)])).toEqual([
    [1, ['run_shell_command']],
    [2, undefined],
  ]);
  const [turn1] = records;
  expect(await restored(turn1.calls![0].before)).toEqual(before);
  // The turn's end checkpoint is the workspace as the command (run on past the crash) left it.
  expect(tree(ws)).not.toHaveProperty('gone.txt');
  expect(await restored(turn1.checkpoint!)).toEqual(tree(ws));
}, 120_000);

test('the checkpoint activity SIGKILLed mid-snapshot is retried and yields a whole checkpoint', async () => {
  // Enough files that the first snapshot (every file new to the store) is still running when the worker dies.
  const files: Record<string, string> = {};
  for (let i = 0; i < 4000; i++) files[`many/d${i % 40}/f${i}.txt`] = `file ${i}\n`.repeat(50);
  const ws = await newWorkspace('ckpt-kill-snap', files);
  const before = tree(ws);
  const { result, events, restored } = await killAndFinish(
    'ckpt-kill-snap',
    [
      functionCallResponse({ name: 'write_file', args: { file_path: 'new.txt', content: 'after\n' } }),
      textResponse('Written.'),
    ],
    ws,
    (handle) => running(handle, 'checkpointWorkspace'),
  );
  expect(result.terminateReason).toBe('completed');
  // The first attempt died with its worker; a retry took the checkpoint the turn refers to.
  expect(attempts(events, 'checkpointWorkspace')[0]).toBeGreaterThanOrEqual(2);
  const [turn1] = result.turnRecords ?? [];
  expect(turn1.calls?.map((c) => c.name)).toEqual(['write_file']);
  expect(await restored(turn1.calls![0].before)).toEqual(before);
  expect(await restored(turn1.checkpoint!)).toEqual(tree(ws));
}, 180_000);
