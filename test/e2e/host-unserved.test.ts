import { execFile } from 'node:child_process';
import { FakeGeminiServer, functionCallResponse, textResponse } from '../../src/fake-gemini';
import { BARE_PATH, expectExit, NAMED_MODEL, sandboxesCleanedAfterEach } from '../helpers/cli';
import { TEST_ENV_VARS } from '../helpers/temporal-env';

jest.setTimeout(180_000);

const sandbox = sandboxesCleanedAfterEach();

test('`run --host X` with no worker of X says so at once, with the command that starts one', async () => {
  const fake = await FakeGeminiServer.start({
    script: [functionCallResponse({ name: 'list_directory', args: { dir_path: '.' } }), textResponse('listed')],
  });
  try {
    const box = sandbox('host-unserved', process.env[TEST_ENV_VARS.address]);
    const env = {
      GOOGLE_GEMINI_BASE_URL: fake.url,
      DURABLE_AGENT_TASK_QUEUE: `host-unserved-${Date.now()}`,
      PATH: BARE_PATH,
    };
    const args = ['run', 'list it', '--host', 'elsewhere', '--approval-mode', 'yolo', ...NAMED_MODEL];
    const run = box.start([...args, '-w', box.workspace], { env });
    const [line, command] = await run.waitFor('stderr', /^no worker of host elsewhere is up.*with: (.+)$/m, 60_000);
    expect(line).toMatch(/prompt \S+ waits/);
    expect(run.stdout).not.toContain('listed');
    // The printed command, as printed, in a shell whose PATH has neither program: it serves the prompt.
    const worker = execFile('sh', ['-c', command], { env: box.env(env) });
    try {
      const result = await run.done;
      expectExit(result, 0);
      expect(result.stdout).toContain('listed');
    } finally {
      worker.kill('SIGTERM');
    }
  } finally {
    await fake.close();
  }
});

test('`run --host` of this machine says nothing about hosts', async () => {
  const fake = await FakeGeminiServer.start({ script: [textResponse('done here')] });
  try {
    const box = sandbox('host-served', process.env[TEST_ENV_VARS.address]);
    const env = { GOOGLE_GEMINI_BASE_URL: fake.url, DURABLE_AGENT_TASK_QUEUE: `host-served-${Date.now()}` };
    const result = await box.run(['run', 'hi', ...NAMED_MODEL, '-w', box.workspace], { env });
    expectExit(result, 0);
    expect(result.stderr).not.toMatch(/no worker of host/);
  } finally {
    await fake.close();
  }
});
