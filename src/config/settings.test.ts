import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadEnvRedaction, loadHookSettings, loadWebSettings, SettingsFileError } from './settings';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'settings-'));
const workspaceFile = path.join(dir, 'ws.json');
const userFile = path.join(dir, 'user.json');
const write = (file: string, value: unknown) =>
  fs.writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
const hook = (command: string, name?: string) => ({ type: 'command', command, ...(name ? { name } : {}) });

afterEach(() => {
  for (const f of [workspaceFile, userFile]) fs.rmSync(f, { force: true });
});

test('no files, or files without hooks, configure nothing', async () => {
  expect(await loadHookSettings({ workspaceFile, userFile })).toBeUndefined();
  write(userFile, { theme: 'dark' });
  expect(await loadHookSettings({ workspaceFile, userFile })).toBeUndefined();
});

test('workspace hooks come before user hooks; other settings keys are left alone', async () => {
  write(workspaceFile, { hooks: { BeforeTool: [{ matcher: 'write_file', hooks: [hook('ws')] }] } });
  write(userFile, {
    model: { name: 'x' },
    hooks: { BeforeTool: [{ hooks: [hook('user')] }], SessionEnd: [{ hooks: [hook('bye')] }] },
  });
  const config = await loadHookSettings({ workspaceFile, userFile });
  expect(config?.BeforeTool?.map((d) => d.hooks[0].command)).toEqual(['ws', 'user']);
  expect(config?.SessionEnd).toHaveLength(1);
});

test('hooksConfig turns hooks off, all of them or by name', async () => {
  write(userFile, {
    hooks: { BeforeAgent: [{ hooks: [hook('a', 'first'), hook('b')] }] },
    hooksConfig: { disabled: ['first'] },
  });
  expect((await loadHookSettings({ workspaceFile, userFile }))?.BeforeAgent?.[0].hooks).toEqual([hook('b')]);
  write(workspaceFile, { hooksConfig: { enabled: false } });
  expect(await loadHookSettings({ workspaceFile, userFile })).toBeUndefined();
});

test.each([
  ['not JSON', '{ hooks: ', /ws\.json: not valid JSON/],
  ['an unknown event', { hooks: { BeforeEverything: [] } }, /ws\.json: hooks: Unrecognized key: "BeforeEverything"/],
  [
    'a hook without a command',
    { hooks: { BeforeTool: [{ hooks: [{ type: 'command' }] }] } },
    /ws\.json: hooks\.BeforeTool\.0\.hooks\.0\.command/,
  ],
  [
    'a timeout in seconds as a string',
    { hooks: { AfterTool: [{ hooks: [{ type: 'command', command: 'x', timeout: '5s' }] }] } },
    /timeout/,
  ],
  ['a non-command hook type', { hooks: { AfterTool: [{ hooks: [{ type: 'runtime', command: 'x' }] }] } }, /type/],
])('%s is an error naming the file', async (_what, content, message) => {
  write(workspaceFile, content);
  const load = loadHookSettings({ workspaceFile, userFile });
  await expect(load).rejects.toBeInstanceOf(SettingsFileError);
  await expect(load).rejects.toThrow(message);
});

test('without a workspace file (an untrusted workspace) only the user file is read', async () => {
  write(workspaceFile, 'not json {');
  write(userFile, { hooks: { BeforeAgent: [{ hooks: [hook('u')] }] } });
  expect((await loadHookSettings({ userFile }))?.BeforeAgent?.[0].hooks).toEqual([hook('u')]);
});

describe('security.environmentVariableRedaction', () => {
  test('is read from the user file only, with empty lists by default', async () => {
    expect(await loadEnvRedaction(userFile)).toEqual({ allowed: [], blocked: [] });
    write(userFile, {
      security: { environmentVariableRedaction: { allowed: ['MY_TOKEN'], blocked: ['INTERNAL_HOST'] } },
    });
    expect(await loadEnvRedaction(userFile)).toEqual({ allowed: ['MY_TOKEN'], blocked: ['INTERNAL_HOST'] });
  });

  test.each([
    [
      'a string instead of a list',
      { allowed: 'MY_TOKEN' },
      /user\.json: security\.environmentVariableRedaction\.allowed/,
    ],
    [
      'a name that is no variable name',
      { blocked: ['A B'] },
      /user\.json: security\.environmentVariableRedaction\.blocked\.0: must be an environment variable name/,
    ],
  ])('%s is an error naming the file and the field', async (_what, redaction, message) => {
    write(userFile, { security: { environmentVariableRedaction: redaction } });
    await expect(loadEnvRedaction(userFile)).rejects.toThrow(message);
    await expect(loadHookSettings({ workspaceFile, userFile })).rejects.toThrow(message);
  });
});

describe('webFetch.allowPrivateAddresses', () => {
  test('is read from the user file only, off by default', async () => {
    expect(await loadWebSettings(userFile)).toBeUndefined();
    write(userFile, { webFetch: { allowPrivateAddresses: true } });
    expect(await loadWebSettings(userFile)).toEqual({ allowPrivateAddresses: true });
  });

  test('a value that is not a boolean is an error naming the file and the field', async () => {
    write(userFile, { webFetch: { allowPrivateAddresses: 'yes' } });
    await expect(loadWebSettings(userFile)).rejects.toThrow(/user\.json: webFetch\.allowPrivateAddresses/);
  });
});
