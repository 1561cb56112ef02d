import { isAgentConfigPath } from './config-paths';
import { defaultPolicy } from './defaults';
import { evaluatePolicy } from './engine';
import type { ApprovalMode } from '../types';

const ROOT = '/home/me/project';
const PLANS = '.durable-agent/plans';

describe('isAgentConfigPath', () => {
  it.each([
    '.durable-agent/settings.json',
    './.durable-agent/settings.json',
    'a/../.durable-agent/policies/allow.toml',
    '.durable-agent//agents/x.md',
    `${ROOT}/.durable-agent/settings.json`,
    `${ROOT}/src/../.durable-agent/settings.json`,
    '.DURABLE-AGENT/settings.json',
    '.Durable-Agent./settings.json',
    'sub/project/.durable-agent/settings.json',
    '../project/.durable-agent/settings.json',
    '/elsewhere/link-to-project/.durable-agent/settings.json',
    '.durable-agent',
  ])('%s is agent configuration', (file) => {
    expect(isAgentConfigPath(file, ROOT)).toBe(true);
  });

  it.each([
    'src/app.ts',
    '.durable-agent/../src/app.ts',
    'durable-agent/settings.json',
    '.durable-agents/settings.json',
    `${ROOT}/src/app.ts`,
    '.gemini/settings.json',
  ])('%s is not', (file) => {
    expect(isAgentConfigPath(file, ROOT)).toBe(false);
  });

  it('looks only below the workspace root when the root itself lies in a .durable-agent folder', () => {
    expect(isAgentConfigPath('/home/me/.durable-agent/ws/src/a.ts', '/home/me/.durable-agent/ws')).toBe(false);
    expect(isAgentConfigPath('/home/me/.durable-agent/ws/.durable-agent/x', '/home/me/.durable-agent/ws')).toBe(true);
  });

  it('is false for a missing or non-string path (the tool refuses those)', () => {
    expect(isAgentConfigPath(undefined, ROOT)).toBe(false);
    expect(isAgentConfigPath(42, ROOT)).toBe(false);
  });
});

describe('the default policy on writes under .durable-agent/', () => {
  const decide = (name: string, file_path: string, mode: ApprovalMode) =>
    evaluatePolicy(
      { rules: defaultPolicy(PLANS) },
      { name, args: { file_path, content: 'x', old_string: 'a', new_string: 'b' } },
      { mode, plansDir: PLANS, workspaceRoot: ROOT },
    ).decision;

  it.each(['write_file', 'replace'])('%s asks in default and auto_edit, runs in yolo', (tool) => {
    for (const file of [
      '.durable-agent/settings.json',
      `${ROOT}/.durable-agent/policies/p.toml`,
      './.durable-agent/agents/a.md',
    ]) {
      expect(decide(tool, file, 'default')).toBe('ask_user');
      expect(decide(tool, file, 'auto_edit')).toBe('ask_user');
      expect(decide(tool, file, 'yolo')).toBe('allow');
    }
    expect(decide(tool, 'src/app.ts', 'auto_edit')).toBe('allow');
  });

  it('in plan mode refuses it, except a plan file in the plans folder', () => {
    expect(decide('write_file', '.durable-agent/settings.json', 'plan')).toBe('deny');
    expect(decide('write_file', '.durable-agent/plans/../settings.json', 'plan')).toBe('deny');
    expect(decide('write_file', '.durable-agent/plans/plan.md', 'plan')).toBe('allow');
    expect(decide('write_file', '.durable-agent/plans/plan.md', 'auto_edit')).toBe('ask_user');
  });
});
