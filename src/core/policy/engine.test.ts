import type { ApprovalMode } from '../types';
import { defaultPolicy } from './defaults';
import { effectivePriority, evaluatePolicy, sessionAllowRule, stableArgsJson, type PolicyCall } from './engine';
import type { PolicyRule, PolicyVerdict } from './types';

const PLANS = '.durable-agent/plans';

function rule(fields: Partial<PolicyRule> & Pick<PolicyRule, 'toolName' | 'decision'>): PolicyRule {
  return { priority: 100, tier: 'user', ...fields };
}

function check(rules: PolicyRule[], call: PolicyCall, mode: ApprovalMode = 'default'): PolicyVerdict {
  return evaluatePolicy({ rules }, call, { mode, plansDir: PLANS, workspaceRoot: '/ws' });
}

const shell = (command: string): PolicyCall => ({ name: 'run_shell_command', args: { command } });
const tool = (name: string, args: Record<string, unknown> = {}): PolicyCall => ({ name, args });

describe('rule order', () => {
  it('computes tier + priority / 1000', () => {
    expect(effectivePriority(rule({ toolName: 'x', decision: 'allow', tier: 'default', priority: 50 }))).toBeCloseTo(
      1.05,
    );
    expect(effectivePriority(rule({ toolName: 'x', decision: 'allow', tier: 'session', priority: 0 }))).toBeCloseTo(
      3.95,
    );
    expect(effectivePriority(rule({ toolName: 'x', decision: 'allow', tier: 'admin', priority: 999 }))).toBeCloseTo(
      5.999,
    );
  });

  it('lets the higher priority win within a tier, whatever the order given', () => {
    const low = rule({ toolName: 'web_fetch', decision: 'deny', priority: 10, tier: 'workspace' });
    const high = rule({ toolName: 'web_fetch', decision: 'allow', priority: 20, tier: 'workspace' });
    expect(check([low, high], tool('web_fetch')).decision).toBe('allow');
    expect(check([high, low], tool('web_fetch')).decision).toBe('allow');
  });

  it('lets a higher tier win over any priority: a workspace allow at 999 loses to a user deny at 0', () => {
    const workspace = rule({ toolName: 'web_fetch', decision: 'allow', priority: 999, tier: 'workspace' });
    const user = rule({ toolName: 'web_fetch', decision: 'deny', priority: 0, tier: 'user' });
    expect(check([workspace, user], tool('web_fetch')).decision).toBe('deny');
    const admin = rule({ toolName: 'web_fetch', decision: 'ask_user', priority: 0, tier: 'admin' });
    expect(check([workspace, user, admin], tool('web_fetch')).decision).toBe('ask_user');
  });

  it('stops at the first matching rule, even when a lower one is stricter', () => {
    const rules = [
      rule({ toolName: 'web_fetch', decision: 'allow', priority: 500 }),
      rule({ toolName: 'web_fetch', decision: 'deny', priority: 400 }),
    ];
    expect(check(rules, tool('web_fetch'))).toEqual({ decision: 'allow' });
  });

  it('puts the stricter decision first on a tie', () => {
    const rules = [
      rule({ toolName: 'web_fetch', decision: 'allow' }),
      rule({ toolName: 'web_fetch', decision: 'deny', source: 'tie.toml: rule 2' }),
    ];
    expect(check(rules, tool('web_fetch'))).toMatchObject({ decision: 'deny', ruleSource: 'tie.toml: rule 2' });
  });

  it('asks when nothing matches, except in yolo mode', () => {
    expect(check([], tool('anything')).decision).toBe('ask_user');
    expect(check([], tool('anything'), 'yolo').decision).toBe('allow');
  });

  it('applies a rule only in its modes (none = all)', () => {
    const rules = [rule({ toolName: 'web_fetch', decision: 'deny', modes: ['plan'] })];
    expect(check(rules, tool('web_fetch'), 'plan').decision).toBe('deny');
    expect(check(rules, tool('web_fetch'), 'default').decision).toBe('ask_user');
    expect(
      check([rule({ toolName: 'web_fetch', decision: 'deny', modes: [] })], tool('web_fetch'), 'yolo').decision,
    ).toBe('deny');
  });
});

describe('tool names', () => {
  const rules = [
    rule({ toolName: 'mcp_github_*', decision: 'allow', priority: 3 }),
    rule({ toolName: 'mcp_*', decision: 'deny', priority: 2 }),
    rule({ toolName: ['glob', 'read_file'], decision: 'allow', priority: 1 }),
  ];

  it.each([
    ['mcp_github_list_issues', 'allow'],
    ['mcp_slack_post', 'deny'],
    ['mcpx', 'ask_user'],
    ['read_file', 'allow'],
    ['glob', 'allow'],
    ['grep_search', 'ask_user'],
  ])('%s → %s', (name, expected) => {
    expect(check(rules, tool(name)).decision).toBe(expected);
  });

  it('matches every tool with *', () => {
    expect(check([rule({ toolName: '*', decision: 'deny' })], tool('whatever')).decision).toBe('deny');
  });

  it("matches Gemini CLI's legacy name search_file_content for grep_search", () => {
    expect(check([rule({ toolName: 'search_file_content', decision: 'deny' })], tool('grep_search')).decision).toBe(
      'deny',
    );
  });
});

describe('argsPattern', () => {
  it('is tested against sorted JSON with each top-level pair framed by NUL', () => {
    const json = stableArgsJson({ b: { z: 1, a: [2, { d: 3, c: 4 }] }, a: 'x', skipped: undefined });
    expect(json).toBe('{\0"a":"x"\0,\0"b":{"a":[2,{"c":4,"d":3}],"z":1}\0}');
  });

  it('can anchor on a key, so a value elsewhere does not match', () => {
    const rules = [rule({ toolName: 'write_file', argsPattern: '\\x00"file_path":"secret/', decision: 'deny' })];
    expect(check(rules, tool('write_file', { file_path: 'secret/a', content: 'x' })).decision).toBe('deny');
    expect(check(rules, tool('write_file', { file_path: 'ok/a', content: '"file_path":"secret/' })).decision).toBe(
      'ask_user',
    );
  });

  it('fails closed on a pattern that does not compile: such a deny matches, such an allow does not', () => {
    expect(check([rule({ toolName: 'x', argsPattern: '(', decision: 'deny' })], tool('x'), 'yolo').decision).toBe(
      'deny',
    );
    expect(check([rule({ toolName: 'x', argsPattern: '(', decision: 'allow' })], tool('x')).decision).toBe('ask_user');
  });
});

describe('shell commands', () => {
  const gitAndRm = [
    rule({ toolName: 'run_shell_command', commandPrefix: 'git status', decision: 'allow' }),
    rule({ toolName: 'run_shell_command', commandPrefix: 'rm', decision: 'deny', denyMessage: 'No deleting.' }),
  ];

  it('allows the allowed command on its own', () => {
    expect(check(gitAndRm, shell('git status')).decision).toBe('allow');
    expect(check(gitAndRm, shell('git status --short')).decision).toBe('allow');
  });

  it.each([
    'git status; rm -rf /',
    'git status && rm x',
    'git status || rm x',
    'git status | rm x',
    'git status\nrm x',
    'git status $(rm x)',
    'git status `rm x`',
    '(rm x)',
    "bash -c 'rm x'",
    'echo "$(rm x)"',
    'git status & rm x',
    'git status; FOO=1 /bin/rm x',
    "git status; 'rm' x",
  ])('denies a denied command smuggled after an allowed one: %j', (command) => {
    const verdict = check(gitAndRm, shell(command));
    expect(verdict.decision).toBe('deny');
    expect(verdict.message).toBe('Tool execution denied by policy. No deleting.');
  });

  it.each(['yolo', 'auto_edit'] as const)('still denies them in %s mode', (mode) => {
    expect(check([...defaultPolicy(PLANS), ...gitAndRm], shell('git status && rm x'), mode).decision).toBe('deny');
  });

  it('asks when one part is allowed and another unknown', () => {
    expect(check(gitAndRm, shell('git status && npm test')).decision).toBe('ask_user');
  });

  it('does not split on quoted separators', () => {
    const rules = [rule({ toolName: 'run_shell_command', commandPrefix: 'git log', decision: 'allow' })];
    expect(check(rules, shell("git log --format='a;b'")).decision).toBe('allow');
    expect(check(rules, shell('git log --grep="x && y"')).decision).toBe('allow');
  });

  it('matches commandPrefix on a word boundary', () => {
    const rules = [rule({ toolName: 'run_shell_command', commandPrefix: 'git', decision: 'allow' })];
    expect(check(rules, shell('git')).decision).toBe('allow');
    expect(check(rules, shell('git\tdiff')).decision).toBe('allow');
    expect(check(rules, shell('gitx')).decision).toBe('ask_user');
    expect(check(rules, shell('git-lfs pull')).decision).toBe('ask_user');
  });

  it('anchors commandRegex at the start of each command', () => {
    const rules = [rule({ toolName: 'run_shell_command', commandRegex: 'npm (test|run \\w+)$', decision: 'allow' })];
    expect(check(rules, shell('npm test && npm run lint')).decision).toBe('allow');
    expect(check(rules, shell('echo npm test')).decision).toBe('ask_user');
  });

  it('denies on a deny rule that matches the whole text', () => {
    const rules = [rule({ toolName: 'run_shell_command', argsPattern: '--force', decision: 'deny' })];
    expect(check(rules, shell('git push --force'), 'yolo').decision).toBe('deny');
  });

  it('downgrades allow to ask for a redirection, except in auto_edit and yolo, or with allowRedirection', () => {
    const echo = rule({ toolName: 'run_shell_command', commandPrefix: 'echo', decision: 'allow' });
    expect(check([echo], shell('echo hi > f')).decision).toBe('ask_user');
    expect(check([echo], shell('echo hi 2>&1')).decision).toBe('allow');
    expect(check([echo], shell('echo hi > f'), 'auto_edit').decision).toBe('allow');
    expect(check([echo], shell('echo hi > f'), 'yolo').decision).toBe('allow');
    expect(check([{ ...echo, allowRedirection: true }], shell('echo hi > f')).decision).toBe('allow');
  });

  it("lets a user-tier deny win in yolo mode (yolo's allow is tier 1, priority 998)", () => {
    const rules = [
      ...defaultPolicy(PLANS),
      rule({ toolName: 'run_shell_command', commandPrefix: 'rm', decision: 'deny', priority: 0 }),
    ];
    expect(check(rules, shell('rm -rf build'), 'yolo').decision).toBe('deny');
    expect(check(rules, shell('ls'), 'yolo').decision).toBe('allow');
  });

  describe('that cannot be parsed', () => {
    const broken = 'git status; rm x "unterminated';

    it('asks outside yolo mode', () => {
      expect(check(gitAndRm, shell(broken)).decision).toBe('ask_user');
    });

    it('denies when the rule for the whole text denies', () => {
      expect(check(gitAndRm, shell('rm "oops')).decision).toBe('deny');
    });

    it('runs in yolo mode when no narrowed rule is involved', () => {
      expect(check(defaultPolicy(PLANS), shell(broken), 'yolo').decision).toBe('allow');
    });

    it('denies in yolo mode when a narrowed rule matched it or a narrowed deny might have', () => {
      const rules = [...defaultPolicy(PLANS), ...gitAndRm];
      expect(check(rules, shell(broken), 'yolo')).toMatchObject({
        decision: 'deny',
        message: expect.stringMatching(/cannot be parsed/),
      });
      expect(check([...defaultPolicy(PLANS), gitAndRm[1]], shell('ls "oops'), 'yolo').decision).toBe('deny');
    });
  });

  describe('that hide a command from a naive reading', () => {
    const allowStatus = [
      ...defaultPolicy(PLANS),
      rule({ toolName: 'run_shell_command', commandPrefix: 'git status', decision: 'allow' }),
    ];
    const denyRm = [
      ...defaultPolicy(PLANS),
      rule({ toolName: 'run_shell_command', commandPrefix: 'rm', decision: 'deny' }),
    ];

    it.each([
      ['git status <(git status)#;touch PWNED'],
      ['git status $(cat <<EOF\nx\nEOF\n); touch PWNED'],
      ['git status $(cat <<EOF)\ntouch PWNED\nEOF'],
      ['git status; $X PWNED'],
      ['env git status'],
    ])('asks under an allow rule for "git status": %j', (command) => {
      expect(check(allowStatus, shell(command)).decision).toBe('ask_user');
    });

    it.each([
      ['git status <(ls)#;rm x'],
      ['eval "rm x"'],
      ['env X=1 rm x'],
      ['exec rm x'],
      ['timeout 5 rm x'],
      ['X=rm; $X x'],
      ['git status $(cat <<EOF\nx\nEOF\n); rm x'],
    ])('denies under a deny rule for "rm" in yolo mode: %j', (command) => {
      expect(check(denyRm, shell(command), 'yolo').decision).toBe('deny');
    });
  });

  it('checks other arguments of each part, such as dir_path', () => {
    const rules = [rule({ toolName: 'run_shell_command', argsPattern: '"dir_path":"/etc', decision: 'deny' })];
    expect(check(rules, { name: 'run_shell_command', args: { command: 'ls', dir_path: '/etc' } }).decision).toBe(
      'deny',
    );
  });
});

describe('deny is final', () => {
  it("tells Gemini CLI's sentence when the rule has no denyMessage", () => {
    expect(check([rule({ toolName: 'web_fetch', decision: 'deny' })], tool('web_fetch')).message).toBe(
      'Tool execution denied by policy.',
    );
  });

  it('cannot be overridden by a proceed_always rule, whatever the priorities', () => {
    const deny = rule({
      toolName: 'run_shell_command',
      commandPrefix: 'git push',
      decision: 'deny',
      tier: 'workspace',
      priority: 0,
    });
    const always = sessionAllowRule(shell('git push'), 'default')!;
    expect(check([deny, always], shell('git push')).decision).toBe('deny');
    expect(check([deny, always], shell('git push origin main')).decision).toBe('deny');
  });

  it('keeps default-tier denies too (exit_plan_mode outside plan mode)', () => {
    const always = sessionAllowRule(tool('exit_plan_mode'), 'plan')!;
    expect(check([...defaultPolicy(PLANS), always], tool('exit_plan_mode'), 'default').decision).toBe('deny');
  });
});

describe('sessionAllowRule', () => {
  it('narrows a shell command to each of its commands with its first argument', () => {
    const always = sessionAllowRule(shell('git status -s && npm test'), 'default')!;
    expect(always).toMatchObject({
      toolName: 'run_shell_command',
      commandPrefix: ['git status', 'npm test'],
      decision: 'allow',
      tier: 'session',
    });
    const rules = [...defaultPolicy(PLANS), always];
    expect(check(rules, shell('git status')).decision).toBe('allow');
    expect(check(rules, shell('npm test -- x | git status --short')).decision).toBe('allow');
    expect(check(rules, shell('git push')).decision).toBe('ask_user');
    expect(check(rules, shell('git statusx')).decision).toBe('ask_user');
    expect(check(rules, shell('npm run build')).decision).toBe('ask_user');
    expect(check(rules, shell('git status; rm x')).decision).toBe('ask_user');
  });

  it('narrows a command without arguments to its name, and options count as the first argument', () => {
    expect(sessionAllowRule(shell('pwd'), 'default')!.commandPrefix).toEqual(['pwd']);
    expect(sessionAllowRule(shell('ls -la src'), 'default')!.commandPrefix).toEqual(['ls -la']);
    expect(sessionAllowRule(shell("bash -c 'git log --oneline'"), 'default')!.commandPrefix).toEqual(['git log']);
  });

  it('narrows to root commands only in the old way, kept for recorded histories', () => {
    expect(sessionAllowRule(shell('git status && npm test'), 'default', 'root')!.commandPrefix).toEqual(['git', 'npm']);
  });

  it('gives no rule when a compound line hides a command it cannot follow', () => {
    expect(sessionAllowRule(shell('git status <(git status)#;$X PWNED'), 'default')).toBeUndefined();
  });

  it('gives no rule for a command that cannot be parsed', () => {
    expect(sessionAllowRule(shell('git "oops'), 'default')).toBeUndefined();
  });

  it('narrows edit tools to that exact file_path', () => {
    const always = sessionAllowRule(tool('write_file', { file_path: 'src/a.ts', content: 'x' }), 'default')!;
    const rules = [...defaultPolicy(PLANS), always];
    expect(check(rules, tool('write_file', { file_path: 'src/a.ts', content: 'other' })).decision).toBe('allow');
    expect(check(rules, tool('write_file', { file_path: 'src/a.tsx', content: 'x' })).decision).toBe('ask_user');
    expect(check(rules, tool('replace', { file_path: 'src/a.ts' })).decision).toBe('ask_user');
    expect(sessionAllowRule(tool('replace', {}), 'default')).toBeUndefined();
  });

  it('allows other tools by name', () => {
    const always = sessionAllowRule(tool('web_fetch', { prompt: 'x' }), 'default')!;
    expect(check([...defaultPolicy(PLANS), always], tool('web_fetch', { prompt: 'y' })).decision).toBe('allow');
  });

  it.each([
    ['plan', ['plan', 'default', 'auto_edit', 'yolo']],
    ['default', ['default', 'auto_edit', 'yolo']],
    ['auto_edit', ['auto_edit', 'yolo']],
    ['yolo', ['yolo']],
  ] as const)('in %s mode holds in %j', (mode, modes) => {
    expect(sessionAllowRule(tool('web_fetch'), mode)!.modes).toEqual(modes);
  });

  it('does not hold in a less permissive mode', () => {
    const always = sessionAllowRule(tool('web_fetch'), 'auto_edit')!;
    expect(check([always], tool('web_fetch'), 'default').decision).toBe('ask_user');
  });
});
