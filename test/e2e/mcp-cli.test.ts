/**
 * `mcpServers` through the real binary: read from the settings files at the CLI's edge, a trusted
 * workspace's servers started and called, an untrusted one's ignored with the usual warning, and a
 * bad entry stopping the run with exit 52.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { expectExit, sandboxesCleanedAfterEach, type Sandbox } from '../helpers/cli';
import { stdioServer } from '../helpers/mcp-servers';
import { TEST_ENV_VARS } from '../helpers/temporal-env';

jest.setTimeout(120_000);

const sandbox = sandboxesCleanedAfterEach();

function withServer(name: string, where: 'workspace' | 'user', servers: unknown): Sandbox {
  const box = sandbox(name, process.env[TEST_ENV_VARS.address]);
  const file =
    where === 'workspace'
      ? path.join(box.workspace, '.durable-agent', 'settings.json')
      : path.join(box.home, 'settings.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ mcpServers: servers }));
  return box;
}

const callThenAnswer = (box: Sandbox, server: string) => [
  functionCallResponse({ name: `mcp_${server}_slow_write`, args: { ms: 1, file: path.join(box.workspace, 'CALLED') } }),
  textResponse('done'),
];
const called = (box: Sandbox) => fs.existsSync(path.join(box.workspace, 'CALLED'));

test.each([
  ['user', {}],
  ['workspace', { DURABLE_AGENT_TRUST_WORKSPACE: '1' }],
] as const)('a server in the %s settings is discovered and called', async (where, env) => {
  const box = withServer(`mcp-${where}`, where, { local: stdioServer() });
  const script = box.script(callThenAnswer(box, 'local'));
  const result = await box.run(
    ['run', 'go', '--approval-mode', 'yolo', '--fake-responses', script, '-w', box.workspace],
    {
      env,
    },
  );
  expectExit(result, 0);
  expect(result.stdout.trim()).toBe('done');
  expect(called(box)).toBe(true);
});

test('an untrusted workspace: its MCP servers are not started, and one warning says so', async () => {
  const box = withServer('mcp-untrusted', 'workspace', { local: stdioServer() });
  const script = box.script(callThenAnswer(box, 'local'));
  const result = await box.run([
    'run',
    'go',
    '--approval-mode',
    'yolo',
    '--fake-responses',
    script,
    '-w',
    box.workspace,
  ]);
  expectExit(result, 0);
  expect(result.stderr).toMatch(/is not trusted: its \.durable-agent\/settings\.json is ignored/);
  expect(called(box)).toBe(false);
});

test('a bad mcpServers entry exits 52 naming the file and the field', async () => {
  const box = withServer('mcp-bad', 'user', { local: { command: 'x', httpUrl: 'http://127.0.0.1:1/mcp' } });
  const result = await box.run(['run', 'go', '-w', box.workspace]);
  expect(result.code).toBe(52);
  expect(result.stderr).toMatch(/settings file error: .*settings\.json: mcpServers\.local: needs exactly one of/);
  expect(result.stdout).toBe('');
});

test('`approve ID --always-server` allows the other tools of that MCP server for the rest of the prompt', async () => {
  const box = withServer('mcp-always-server', 'user', { local: stdioServer() });
  const script = box.script([
    functionCallResponse({ name: 'mcp_local_echo', args: { text: 'first' } }),
    functionCallResponse({ name: 'mcp_local_add', args: { a: 2, b: 3 } }),
    textResponse('done'),
  ]);
  const env = { DURABLE_AGENT_TASK_QUEUE: `mcp-always-server-${Date.now()}` };
  const run = box.start(['run', 'go', '--fake-responses', script, '-w', box.workspace], { env });
  const [, id] = await run.waitFor('stderr', /durable-agent approve (\S+) \S+/);
  const both = await box.run(['approve', id, '--always', '--always-server']);
  expect(both.code).not.toBe(0);
  expect(both.stderr).toMatch(/--always-server.*cannot be used with.*--always/);
  expectExit(await box.run(['approve', id, '--always-server']), 0);
  const result = await run.done;
  expectExit(result, 0);
  expect(result.stdout.trim()).toBe('done');
  expect(result.stderr.match(/needs approval/g)).toHaveLength(1);
});
