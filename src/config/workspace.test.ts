import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadConfig } from './env';
import { ConfigError } from './errors';
import { loadSettings, loadWorkspaceConfig, settingsDefaults } from './workspace';

/**
 * A command reads each settings file once: the run's defaults (`model.name`, the approval mode) and
 * every section of the prompt's configuration (hooks, MCP servers, context file names, tool rules,
 * models, web) are taken from that one reading.
 */

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'workspace-config-'));
const home = path.join(root, 'home');
const workspace = path.join(root, 'project');
const userFile = path.join(home, 'settings.json');
const workspaceFile = path.join(workspace, '.durable-agent', 'settings.json');
const config = loadConfig({
  DURABLE_AGENT_HOME: home,
  TEMPORAL_CONFIG_FILE: path.join(root, 'no-such-temporal.toml'),
});
const quiet = { stderr: { write: () => true } };
const hook = (command: string) => ({ hooks: [{ type: 'command', command }] });

beforeAll(() => {
  fs.mkdirSync(path.dirname(workspaceFile), { recursive: true });
  fs.mkdirSync(home, { recursive: true });
  fs.writeFileSync(
    userFile,
    JSON.stringify({
      model: { name: 'gemini-2.5-pro' },
      hooks: { BeforeTool: [hook('user')] },
      webFetch: { allowPrivateAddresses: true },
      mcpServers: { files: { command: 'files-server' } },
    }),
  );
  fs.writeFileSync(
    workspaceFile,
    JSON.stringify({
      general: { defaultApprovalMode: 'plan' },
      hooks: { BeforeTool: [hook('workspace')] },
      context: { fileName: 'AGENTS.md' },
      tools: { exclude: ['web_fetch'] },
    }),
  );
});

afterEach(() => jest.restoreAllMocks());

test('a run reads each settings file once, and takes every section from that reading', async () => {
  const readFile = jest.spyOn(fs.promises, 'readFile');
  const settings = await loadSettings(config, workspace, true);
  expect(settingsDefaults(settings)).toMatchObject({ model: 'gemini-2.5-pro', approvalMode: 'plan' });
  const loaded = await loadWorkspaceConfig(config, workspace, { trustFlag: true, settings }, quiet);
  const reads = readFile.mock.calls.map(([file]) => String(file)).filter((file) => file.endsWith('settings.json'));
  expect(reads.sort()).toEqual([workspaceFile, userFile].sort());
  expect(loaded.hooks?.BeforeTool?.map((d) => d.hooks[0].command)).toEqual(['workspace', 'user']);
  expect(loaded.contextFileNames).toEqual(['AGENTS.md']);
  expect(Object.keys(loaded.mcpServers ?? {})).toEqual(['files']);
  expect(loaded.web).toEqual({ allowPrivateAddresses: true });
  expect(loaded.policyRules.some((r) => r.toolName === 'web_fetch' && r.decision === 'deny')).toBe(true);
});

test('without settings already read, the prompt configuration still reads each file once', async () => {
  const readFile = jest.spyOn(fs.promises, 'readFile');
  await loadWorkspaceConfig(config, workspace, { trustFlag: true }, quiet);
  const reads = readFile.mock.calls.map(([file]) => String(file)).filter((file) => file.endsWith('settings.json'));
  expect(reads.sort()).toEqual([workspaceFile, userFile].sort());
});

test('a bad settings file is still a clear error naming the file', async () => {
  const badHome = path.join(root, 'bad-home');
  fs.mkdirSync(badHome, { recursive: true });
  fs.writeFileSync(path.join(badHome, 'settings.json'), '{ "tools": { "exclude": "web_fetch" } }');
  const bad = { ...config, home: badHome };
  const err = await loadSettings(bad, workspace, false).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ConfigError);
  expect((err as Error).message).toContain(path.join(badHome, 'settings.json'));
  expect((err as Error).message).toMatch(/tools\.exclude/);
});
