import type { ApprovalMode } from '../types';
import { defaultPolicy, isPlanFile } from './defaults';
import { evaluatePolicy, type PolicyCall } from './engine';
import type { PolicyDecision, PolicyVerdict } from './types';

const PLANS = '.durable-agent/plans';
const ROOT = '/home/me/project';

function check(call: PolicyCall, mode: ApprovalMode): PolicyVerdict {
  return evaluatePolicy({ rules: defaultPolicy(PLANS) }, call, { mode, plansDir: PLANS, workspaceRoot: ROOT });
}

const call = (name: string, args: Record<string, unknown> = {}): PolicyCall => ({ name, args });
const write = (file_path: string): PolicyCall => call('write_file', { file_path, content: '# plan' });

const TOOLS: PolicyCall[] = [
  call('read_file', { file_path: 'a.ts' }),
  call('list_directory', { dir_path: '.' }),
  call('glob', { pattern: '**/*.ts' }),
  call('grep_search', { pattern: 'x' }),
  call('read_tool_output', { ref: `sha256:${'a'.repeat(64)}` }),
  call('complete_task', { result: 'done' }),
  write('src/a.ts'),
  call('replace', { file_path: 'src/a.ts', old_string: 'a', new_string: 'b' }),
  call('run_shell_command', { command: 'ls' }),
  call('web_fetch', { prompt: 'https://example.com' }),
  call('activate_skill', { name: 'pr-review' }),
];

/** Expected decision per mode, in the order of TOOLS. */
const EXPECTED: Record<ApprovalMode, PolicyDecision[]> = {
  default: [
    'allow',
    'allow',
    'allow',
    'allow',
    'allow',
    'allow',
    'ask_user',
    'ask_user',
    'ask_user',
    'ask_user',
    'ask_user',
  ],
  auto_edit: ['allow', 'allow', 'allow', 'allow', 'allow', 'allow', 'allow', 'allow', 'ask_user', 'allow', 'ask_user'],
  yolo: ['allow', 'allow', 'allow', 'allow', 'allow', 'allow', 'allow', 'allow', 'allow', 'allow', 'allow'],
  plan: ['allow', 'allow', 'allow', 'allow', 'allow', 'allow', 'deny', 'deny', 'deny', 'ask_user', 'ask_user'],
};

const matrix = (Object.keys(EXPECTED) as ApprovalMode[]).flatMap((mode) =>
  TOOLS.map((c, k) => [mode, c.name, c, EXPECTED[mode][k]] as const),
);

describe('defaultPolicy', () => {
  it.each(matrix)('in %s mode: %s → %s', (mode, _name, c, expected) => {
    expect(check(c, mode).decision).toBe(expected);
  });

  it('asks for an unknown tool, except in yolo mode, and refuses it in plan mode', () => {
    expect(check(call('mcp_x_y'), 'default').decision).toBe('ask_user');
    expect(check(call('mcp_x_y'), 'yolo').decision).toBe('allow');
    expect(check(call('mcp_x_y'), 'plan').decision).toBe('deny');
  });

  it('keeps redirections in yolo mode but asks for them in default mode', () => {
    expect(check(call('run_shell_command', { command: 'echo x > f' }), 'yolo').decision).toBe('allow');
    expect(check(call('run_shell_command', { command: 'echo x > f' }), 'default').decision).toBe('ask_user');
  });

  it('names each rule as its source', () => {
    expect(check(call('read_file'), 'default').ruleSource).toBe('default policy: read-only tools');
    expect(defaultPolicy(PLANS).every((r) => r.tier === 'default' && r.source?.startsWith('default policy: '))).toBe(
      true,
    );
  });

  describe('plan mode', () => {
    it.each([
      '.durable-agent/plans/x.md',
      './.durable-agent/plans/x.md',
      '.durable-agent/plans/sub/x.md',
      '.durable-agent/plans/../plans/x.md',
      `${ROOT}/.durable-agent/plans/x.md`,
    ])('writes the plan file %s', (path) => {
      expect(check(write(path), 'plan').decision).toBe('allow');
      expect(check(call('replace', { file_path: path, old_string: 'a', new_string: 'b' }), 'plan').decision).toBe(
        'allow',
      );
    });

    it.each([
      '.durable-agent/plans/x.txt',
      '.durable-agent/plans.md',
      '.durable-agent/plans/x.md/..',
      'src/a.md',
      '.durable-agent/plans/../../evil.md',
      '../project/.durable-agent/plans/x.md',
      '/elsewhere/.durable-agent/plans/x.md',
      `${ROOT}/../project/.durable-agent/plans/../x.md`,
    ])('refuses to write %s, with a message naming the plans folder', (path) => {
      const verdict = check(write(path), 'plan');
      expect(verdict.decision).toBe('deny');
      expect(verdict.message).toMatch(/^Tool execution denied by policy\. /);
      expect(verdict.message).toContain(`${PLANS}/`);
    });

    it('refuses shell commands, with a message', () => {
      const verdict = check(call('run_shell_command', { command: 'git status' }), 'plan');
      expect(verdict.decision).toBe('deny');
      expect(verdict.message).toMatch(/not available in plan mode/);
    });

    it('asks to leave plan mode and refuses to enter it again', () => {
      expect(check(call('exit_plan_mode'), 'plan').decision).toBe('ask_user');
      expect(check(call('enter_plan_mode'), 'plan').decision).toBe('deny');
    });
  });

  it('asks to enter plan mode and refuses to exit it when not in plan mode', () => {
    for (const mode of ['default', 'auto_edit'] as const) {
      expect(check(call('enter_plan_mode'), mode).decision).toBe('ask_user');
      expect(check(call('exit_plan_mode'), mode).decision).toBe('deny');
    }
    expect(check(call('enter_plan_mode'), 'yolo').decision).toBe('deny');
    expect(check(call('exit_plan_mode'), 'yolo').decision).toBe('deny');
  });
});

describe('isPlanFile', () => {
  it('accepts a trailing slash on the plans folder and an absolute plans folder', () => {
    expect(isPlanFile('.durable-agent/plans/a.md', '.durable-agent/plans/', ROOT)).toBe(true);
    expect(isPlanFile('.durable-agent/plans/a.md', `${ROOT}/.durable-agent/plans`, ROOT)).toBe(true);
  });

  it('refuses non-strings and the folder itself', () => {
    expect(isPlanFile(undefined, PLANS, ROOT)).toBe(false);
    expect(isPlanFile(42, PLANS, ROOT)).toBe(false);
    expect(isPlanFile(PLANS, PLANS, ROOT)).toBe(false);
  });
});
