import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { defaultPolicy } from '../core/policy/defaults';
import { evaluatePolicy } from '../core/policy/engine';
import type { ApprovalMode } from '../core/types';
import { loadGeminiSettings } from './gemini-settings';
import { SettingsFileError } from './settings';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gemini-settings-'));
const userFile = path.join(dir, 'user.json');
const PLANS = '.durable-agent/plans';

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The decision for one call under the default policy plus the rules of `tools`, as Gemini CLI 0.61.0 combines them. */
async function decide(
  tools: Record<string, string[]>,
  name: string,
  args: Record<string, unknown>,
  mode: ApprovalMode,
) {
  fs.writeFileSync(userFile, JSON.stringify({ tools }));
  const settings = await loadGeminiSettings({ userFile });
  expect(settings.warnings).toEqual([]);
  const rules = [...defaultPolicy(PLANS), ...settings.rules];
  return evaluatePolicy({ rules }, { name, args }, { mode, plansDir: PLANS, workspaceRoot: dir }).decision;
}

const write = { file_path: 'a.txt', content: 'x' };
const shell = (command: string) => ({ command });

test.each([
  ['tools.core lists write_file: it runs unasked, as in Gemini CLI', { core: ['write_file'] }, 'allow'],
  [
    'tools.confirmationRequired outranks tools.core',
    { core: ['write_file', 'read_file'], confirmationRequired: ['write_file'] },
    'ask_user',
  ],
  [
    'tools.confirmationRequired outranks tools.allowed',
    { allowed: ['write_file'], confirmationRequired: ['write_file'] },
    'ask_user',
  ],
  [
    'tools.exclude outranks tools.confirmationRequired',
    { exclude: ['write_file'], confirmationRequired: ['write_file'] },
    'deny',
  ],
  ['tools.core leaves out what it does not list', { core: ['read_file'] }, 'deny'],
])('%s', async (_label, tools, expected) => {
  expect(await decide(tools, 'write_file', write, 'default')).toBe(expected);
});

test('tools.allowed with a narrowed shell allows that command and refuses the others', async () => {
  const tools = { allowed: ['run_shell_command(git status)'] };
  expect(await decide(tools, 'run_shell_command', shell('git status'), 'default')).toBe('allow');
  expect(await decide(tools, 'run_shell_command', shell('rm -rf x'), 'default')).toBe('deny');
});

test('tools.core does not apply in plan mode', async () => {
  expect(await decide({ core: ['write_file'] }, 'write_file', write, 'plan')).toBe('deny');
  expect(await decide({ core: ['write_file'] }, 'read_file', { file_path: 'a.txt' }, 'plan')).toBe('allow');
});

test('a tool list that is not a list of names is a settings error naming the key', async () => {
  fs.writeFileSync(userFile, JSON.stringify({ tools: { confirmationRequired: 'write_file' } }));
  await expect(loadGeminiSettings({ userFile })).rejects.toThrow(SettingsFileError);
  await expect(loadGeminiSettings({ userFile })).rejects.toThrow(/tools\.confirmationRequired/);
});
