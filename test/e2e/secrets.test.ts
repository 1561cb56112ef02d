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

/** Reads what `file` holds once it says END (a background command or a server writes it on its own time). */
async function whenWritten(file: string): Promise<string> {
  for (let i = 0; i < 400; i += 1) {
    const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    if (text.includes('\nEND')) return text;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${file} was not written`);
}

/** Each kind of process the agent starts writes its ancestors' and its own environment to `<kind>-env.txt`. */
function everyKind(workspace: string) {
  const dump = (kind: string) => `{ ${DUMP}; echo END; } > "${path.join(workspace, `${kind}-env.txt`)}" 2>&1`;
  const server = path.resolve(__dirname, '..', 'fixtures', 'mcp-server.js');
  return {
    command: `${dump('tool')}; cat tool-env.txt`,
    background: dump('background'),
    hooks: hooksOn('BeforeTool', [`${dump('hook')}; echo '{}'`]),
    // The server's settings ask for the key by name; it expands to nothing.
    mcpServers: {
      probe: {
        command: 'bash',
        args: ['-c', `${dump('mcp')}; exec "${process.execPath}" "${server}"`],
        env: { LEAKED_KEY: 'x$GEMINI_API_KEY', LEAKED_TOKEN: 'y${FOO_TOKEN}' },
      },
    },
    kinds: ['tool', 'background', 'hook', 'mcp'],
  };
}

/**
 * A shell command, a background command, a hook and an MCP server each read the environment of
 * every ancestor they can and their own. The worker's API key, a token and a URL with a password
 * appear nowhere; a variable allow-listed in the user's settings does pass.
 */
test(
  'no secret of the worker is readable by any process the agent starts (command, background command, hook, ' +
    'MCP server), through their ancestors or their own environment',
  async () => {
    const env = await getTestEnv();
    const home = fs.mkdtempSync(path.join(env.tmpDir, 'secrets-home-'));
    const workspace = fs.realpathSync(fs.mkdtempSync(path.join(env.tmpDir, 'secrets-ws-')));
    fs.writeFileSync(
      path.join(home, 'settings.json'),
      JSON.stringify({ security: { environmentVariableRedaction: { allowed: ['ALLOWED_TOKEN'] } } }),
    );
    const probe = everyKind(workspace);
    fake = await FakeGeminiServer.start({
      script: [
        functionCallResponse({ name: 'run_shell_command', args: { command: probe.command } }),
        functionCallResponse({ name: 'run_shell_command', args: { command: probe.background, is_background: true } }),
        textResponse('Looked.'),
      ],
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
      const { hooks, mcpServers } = probe;
      const result = (await env.client.workflow.execute('agentPromptWorkflow', {
        taskQueue,
        workflowId: `secrets-${Date.now()}`,
        args: [
          {
            prompt: 'look around',
            workspace,
            model: 'gemini-test',
            approvalMode: 'yolo',
            maxTurns: 5,
            hooks,
            mcpServers,
          },
        ],
      })) as PromptResult;
      expect(result.response).toBe('Looked.');
      const sent = JSON.stringify(fake.requests[1].body);
      for (const kind of probe.kinds) {
        const text = await whenWritten(path.join(workspace, `${kind}-env.txt`));
        expect({ kind, ancestors: /^ANCESTOR \d+ /m.test(text), self: text.includes('\nSELF\n') }).toEqual({
          kind,
          ancestors: true,
          self: true,
        });
        // An MCP server gets only the basic variables and its own `env`, as with Gemini CLI's stdio transport.
        if (kind !== 'mcp') expect(text).toContain('ALLOWED_TOKEN=allowed-value-9d0e');
        for (const secret of [TEST_API_KEY, SECRETS.FOO_TOKEN, 'pw-51c2e'])
          expect({ kind, text }).toEqual({
            kind,
            text: expect.not.stringContaining(secret),
          });
      }
      expect(fs.readFileSync(path.join(workspace, 'mcp-env.txt'), 'utf8')).toMatch(/^LEAKED_KEY=x$/m);
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
