import * as fs from 'node:fs';
import * as path from 'node:path';
import { FakeGeminiServer, functionCallResponse, textResponse } from '../../src/fake-gemini';
import { statusQuery, type PromptResult } from '../../src/workflows/api';
import { closeTestEnv, getTestEnv } from '../helpers/temporal-env';
import { exited, spawnWorker, waitFor } from '../helpers/processes';
import { startPromptOnWorkerProcess } from '../helpers/worker-prompt';
import { hooksOn } from '../helpers/hook-config';

let fake: FakeGeminiServer;
afterAll(async () => {
  await fake?.close();
  await closeTestEnv();
});

/**
 * Hooks append a line each to a log. The worker is SIGKILLed after BeforeAgent and BeforeTool ran
 * (during the slow tool call); a new worker finishes the prompt. Their decisions are in history,
 * so neither runs again: every hook event has exactly one line.
 */
test('a hook that already ran is not run again after its worker is killed and another takes over', async () => {
  const env = await getTestEnv();
  const home = fs.mkdtempSync(path.join(env.tmpDir, 'hook-kill-home-'));
  const workspace = fs.realpathSync(fs.mkdtempSync(path.join(env.tmpDir, 'hook-kill-ws-')));
  const log = (event: string) => `echo ${event} >> "$GEMINI_PROJECT_DIR/hooks.log"`;
  const hooks = {
    ...hooksOn('BeforeAgent', [log('BeforeAgent')]),
    ...hooksOn('BeforeTool', [log('BeforeTool')]),
    ...hooksOn('AfterTool', [log('AfterTool')]),
    ...hooksOn('AfterAgent', [log('AfterAgent')]),
  };
  const command = 'echo started >> marker.txt; sleep 3';
  fake = await FakeGeminiServer.start({
    script: [functionCallResponse({ name: 'run_shell_command', args: { command } }), textResponse('Handled.')],
  });
  const { workerEnv, first, handle } = await startPromptOnWorkerProcess(env, {
    name: 'hook-kill',
    fakeUrl: fake.url,
    home,
    workspace,
    prompt: 'run the slow thing',
    input: { hooks },
  });
  await waitFor(
    async () => (await handle.query(statusQuery)).toolCalls.some((c) => c.status === 'executing'),
    30_000,
    first.output,
  );
  await waitFor(async () => fs.existsSync(path.join(workspace, 'marker.txt')), 10_000, first.output);
  first.kill('SIGKILL');
  await exited(first);
  expect(fs.readFileSync(path.join(workspace, 'hooks.log'), 'utf8')).toBe('BeforeAgent\nBeforeTool\n');
  const second = spawnWorker(workerEnv);
  try {
    const result = (await handle.result()) as PromptResult;
    expect(result.response).toBe('Handled.');
    expect(fs.readFileSync(path.join(workspace, 'hooks.log'), 'utf8')).toBe(
      'BeforeAgent\nBeforeTool\nAfterTool\nAfterAgent\n',
    );
  } finally {
    second.kill('SIGTERM');
    await exited(second);
  }
}, 90_000);
