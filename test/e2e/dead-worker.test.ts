import * as fs from 'node:fs';
import * as path from 'node:path';
import type { temporal } from '@temporalio/proto';
import { FakeGeminiServer, functionCallResponse, textResponse, type ScriptLine } from '../../src/fake-gemini';
import { WORKER_DIED } from '../../src/client/dead-worker-attempts';
import type { PromptResult } from '../../src/workflows/api';
import { closeTestEnv, getTestEnv } from '../helpers/temporal-env';
import { exited, spawnWorker, waitFor } from '../helpers/processes';
import { startPromptOnWorkerProcess } from '../helpers/worker-prompt';
import { startedAttempts } from '../helpers/history-attempts';

let fake: FakeGeminiServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});
afterAll(async () => {
  await closeTestEnv();
});

type Event = temporal.api.history.v1.IHistoryEvent;

/** Workflow tasks that timed out: a task left on the dead worker's sticky queue times out to the shared one. */
function timedOutTasks(events: Event[]) {
  return events.filter((e) => e.workflowTaskTimedOutEventAttributes);
}

/**
 * A worker process is SIGKILLed while an activity attempt runs; the next worker to start on this
 * host finds the attempt's worker dead and fails the attempt itself, so it is retried at once rather
 * than after its heartbeat timeout. History shows the second attempt started after a WorkerDied failure
 * (a timed-out attempt would show a timeout instead), and no workflow task waiting out the dead
 * worker's sticky queue.
 */
describe('a new worker fails the attempts of a dead worker of this host', () => {
  async function killAndResume(
    name: string,
    script: ScriptLine[],
    inFlight: (ws: string) => boolean | Promise<boolean>,
    input = {},
  ) {
    const env = await getTestEnv();
    const home = fs.mkdtempSync(path.join(env.tmpDir, `${name}-home-`));
    const workspace = fs.realpathSync(fs.mkdtempSync(path.join(env.tmpDir, `${name}-ws-`)));
    fake = await FakeGeminiServer.start({ script });
    const { workerEnv, first, handle } = await startPromptOnWorkerProcess(env, {
      name,
      fakeUrl: fake.url,
      home,
      workspace,
      prompt: 'go',
      input,
    });
    await waitFor(async () => inFlight(workspace), 30_000, first.output);
    first.kill('SIGKILL');
    await exited(first);
    const second = spawnWorker(workerEnv);
    try {
      const result = (await handle.result()) as PromptResult;
      const history = await handle.fetchHistory();
      return { result, events: history.events ?? [] };
    } finally {
      second.kill('SIGTERM');
      await exited(second);
    }
  }

  test('killed mid model call: the call is retried after a WorkerDied failure', async () => {
    const { result, events } = await killAndResume(
      'dead-model',
      [textResponse('never sent', { delayMs: 120_000 }), textResponse('Answered after the worker died.')],
      () => (fake?.requests.length ?? 0) >= 1,
      // The default heartbeat timeout (15 s): without the sweep the retry would follow a timeout.
      { modelHeartbeatTimeoutMs: 15_000 },
    );
    expect(result.response).toBe('Answered after the worker died.');
    expect(startedAttempts(events, 'callModel')).toEqual([{ attempt: 2, lastFailureType: WORKER_DIED }]);
    expect(timedOutTasks(events)).toEqual([]);
  }, 90_000);

  test('killed mid tool call: the tool is retried after a WorkerDied failure and reports the command’s real outcome', async () => {
    const command = 'echo started >> marker.txt; sleep 4; echo finished-anyway';
    const { result, events } = await killAndResume(
      'dead-tool',
      [functionCallResponse({ name: 'run_shell_command', args: { command } }), textResponse('Handled.')],
      (ws) => fs.existsSync(path.join(ws, 'marker.txt')),
      { toolHeartbeatTimeoutMs: 30_000 },
    );
    expect(result.response).toBe('Handled.');
    const tool = startedAttempts(events, 'runTool');
    expect(tool.at(-1)).toEqual({ attempt: 2, lastFailureType: WORKER_DIED });
    // The command ran on in the spawner; the retry waited for it instead of running it again.
    expect(JSON.stringify(fake?.requests[1].body)).toContain('finished-anyway');
    expect(timedOutTasks(events)).toEqual([]);
  }, 90_000);
});
