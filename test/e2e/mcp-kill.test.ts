import * as fs from 'node:fs';
import * as path from 'node:path';
import { FakeGeminiServer, functionCallResponse, textResponse } from '../../src/fake-gemini';
import { statusQuery, type PromptResult } from '../../src/workflows/api';
import { closeTestEnv, getTestEnv } from '../helpers/temporal-env';
import { exited, spawnWorker, waitFor } from '../helpers/processes';
import { startPromptOnWorkerProcess } from '../helpers/worker-prompt';
import { stdioServer } from '../helpers/mcp-servers';

let fake: FakeGeminiServer;
afterAll(async () => {
  await fake?.close();
  await closeTestEnv();
});

/**
 * The worker process is SIGKILLed while an MCP tool runs on its stdio server. A new worker takes
 * the prompt over (after the heartbeat timeout), connects its own pool to the server again for the
 * read-only call, and the prompt completes. The call that is not read-only is not sent again
 * (invariant 7): the model is told its outcome is unknown.
 */
test.each([
  ['slow', 'slept 1500 ms', 2],
  ['slow_write', 'whether it took effect is unknown', 1],
])(
  'a prompt survives its worker being SIGKILLed during MCP tool %s and completes on a new worker',
  async (tool, answer, starts) => {
    const env = await getTestEnv();
    const home = fs.mkdtempSync(path.join(env.tmpDir, 'mcp-kill-home-'));
    const workspace = fs.realpathSync(fs.mkdtempSync(path.join(env.tmpDir, 'mcp-kill-ws-')));
    const marker = path.join(workspace, 'marker.txt');
    await fake?.close();
    fake = await FakeGeminiServer.start({
      script: [
        functionCallResponse({ name: `mcp_srv_${tool}`, args: { ms: 1500, file: marker } }),
        textResponse('handled'),
      ],
    });
    const { workerEnv, first, handle } = await startPromptOnWorkerProcess(env, {
      name: 'mcp-kill',
      fakeUrl: fake.url,
      home,
      workspace,
      prompt: 'call the slow tool',
      input: { mcpServers: { srv: stdioServer() } },
    });
    await waitFor(async () => fs.existsSync(marker), 30_000, first.output);
    first.kill('SIGKILL');
    await exited(first);
    const second = spawnWorker(workerEnv);
    try {
      const result = (await handle.result()) as PromptResult;
      expect(result.response).toBe('handled');
      expect(JSON.stringify(fake.requests[1].body)).toContain(answer);
      expect(fs.readFileSync(marker, 'utf8').trim().split('\n')).toHaveLength(starts);
      expect((await handle.query(statusQuery)).toolCalls.map((c) => c.name)).toEqual([`mcp_srv_${tool}`]);
    } finally {
      second.kill('SIGTERM');
      await exited(second);
    }
  },
  90_000,
);
