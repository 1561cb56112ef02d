import * as fs from 'node:fs';
import * as path from 'node:path';
import { FakeGeminiServer, functionCallResponse, textResponse } from '../../src/fake-gemini';
import type { PromptResult } from '../../src/workflows/api';
import { TEST_API_KEY } from '../helpers/agent-harness';
import { hooksOn } from '../helpers/hook-config';
import { exited, spawnWorker } from '../helpers/processes';
import { closeTestEnv, getTestEnv } from '../helpers/temporal-env';

let fake: FakeGeminiServer | undefined;
afterAll(async () => {
  await fake?.close();
  await closeTestEnv();
});

/** Prints the initial environment of every ancestor (as `/proc` shows it), then its own. */
const DUMP = [
  'p=$PPID; while [ "$p" -gt 1 ]; do echo "ANCESTOR $p $(cat /proc/$p/comm)"; tr \'\\0\' \'\\n\' < ' +
    '/proc/$p/environ; echo;',
  "p=$(awk '{print $4}' /proc/$p/stat); done; echo SELF; env",
].join(' ');

const SECRETS = {
  GEMINI_API_KEY: TEST_API_KEY,
  FOO_TOKEN: 'foo-token-value-7f3a',
  DATABASE_URL: 'postgres://u:pw-51c2e@db.example/app',
};

/**
 * A shell command and a hook read the environment of each of their ancestors and their own. The
 * worker's API key, a token and a URL with a password appear nowhere; a variable allow-listed in
 * the user's settings does pass.
 */
test(
  'no secret of the worker is readable by a shell command or a hook, through their ancestors or their own ' +
    'environment',
  async () => {
    const env = await getTestEnv();
    const home = fs.mkdtempSync(path.join(env.tmpDir, 'secrets-home-'));
    const workspace = fs.realpathSync(fs.mkdtempSync(path.join(env.tmpDir, 'secrets-ws-')));
    fs.writeFileSync(
      path.join(home, 'settings.json'),
      JSON.stringify({ security: { environmentVariableRedaction: { allowed: ['ALLOWED_TOKEN'] } } }),
    );
    const command = `{ ${DUMP}; } > tool-env.txt 2>&1; cat tool-env.txt`;
    fake = await FakeGeminiServer.start({
      script: [functionCallResponse({ name: 'run_shell_command', args: { command } }), textResponse('Looked.')],
    });
    const taskQueue = env.uniqueTaskQueue('secrets');
    const worker = spawnWorker({
      TEMPORAL_ADDRESS: env.address,
      DURABLE_AGENT_TASK_QUEUE: taskQueue,
      GOOGLE_GEMINI_BASE_URL: fake.url,
      DURABLE_AGENT_HOME: home,
      ALLOWED_TOKEN: 'allowed-value-9d0e',
      ...SECRETS,
    });
    try {
      const hooks = hooksOn('BeforeTool', [`{ ${DUMP}; } > "$GEMINI_PROJECT_DIR/hook-env.txt" 2>&1; echo '{}'`]);
      const result = (await env.client.workflow.execute('agentPromptWorkflow', {
        taskQueue,
        workflowId: `secrets-${Date.now()}`,
        args: [{ prompt: 'look around', workspace, model: 'gemini-test', approvalMode: 'yolo', maxTurns: 5, hooks }],
      })) as PromptResult;
      expect(result.response).toBe('Looked.');
      const sent = JSON.stringify(fake.requests[1].body);
      for (const text of [
        fs.readFileSync(path.join(workspace, 'tool-env.txt'), 'utf8'),
        fs.readFileSync(path.join(workspace, 'hook-env.txt'), 'utf8'),
      ]) {
        expect(text).toMatch(/^ANCESTOR \d+ /m);
        expect(text).toContain('\nSELF\n');
        expect(text).toContain('ALLOWED_TOKEN=allowed-value-9d0e');
        for (const secret of [TEST_API_KEY, SECRETS.FOO_TOKEN, 'pw-51c2e']) expect(text).not.toContain(secret);
      }
      expect(sent).toContain('ALLOWED_TOKEN=allowed-value-9d0e');
      for (const secret of [TEST_API_KEY, SECRETS.FOO_TOKEN, 'pw-51c2e']) expect(sent).not.toContain(secret);
    } finally {
      worker.kill('SIGTERM');
      await exited(worker);
    }
  },
  90_000,
);

test('a worker whose user settings have an invalid allow-list exits 52 naming the file and the field', async () => {
  const env = await getTestEnv();
  const home = fs.mkdtempSync(path.join(env.tmpDir, 'secrets-bad-home-'));
  fs.writeFileSync(
    path.join(home, 'settings.json'),
    JSON.stringify({ security: { environmentVariableRedaction: { allowed: 'ALLOWED_TOKEN' } } }),
  );
  const worker = spawnWorker({
    TEMPORAL_ADDRESS: env.address,
    DURABLE_AGENT_TASK_QUEUE: env.uniqueTaskQueue('secrets-bad'),
    GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:9',
    DURABLE_AGENT_HOME: home,
    GEMINI_API_KEY: 'k',
  });
  try {
    await Promise.race([exited(worker), new Promise((r) => setTimeout(r, 30_000))]);
  } finally {
    worker.kill('SIGKILL');
  }
  expect(worker.exitCode).toBe(52);
  expect(worker.output()).toContain(
    `${path.join(home, 'settings.json')}: security.environmentVariableRedaction.allowed`,
  );
}, 60_000);
