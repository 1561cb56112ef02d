import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { defaultPolicy } from '../core/policy/defaults';
import { evaluatePolicy } from '../core/policy/engine';
import { loadPolicyFiles, parsePolicyFile, PolicyFileError } from './policies';

let tmp: string;

beforeEach(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'policy-load-'));
});

afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

async function writePolicy(dir: string, name: string, text: string): Promise<string> {
  await fs.mkdir(path.join(tmp, dir), { recursive: true });
  const file = path.join(tmp, dir, name);
  await fs.writeFile(file, text);
  return file;
}

const VALID = `
[[rule]]
toolName = "run_shell_command"
commandPrefix = ["git status", "git log"]
decision = "allow"
priority = 100

[[rule]]
toolName = ["write_file", "replace"]
argsPattern = '\\x00"file_path":"secrets/'
decision = "deny"
priority = 500
denyMessage = "Secrets are off limits."

[[rule]]
toolName = "run_shell_command"
commandRegex = "npm (test|run lint)"
decision = "allow"
priority = 0
modes = ["default", "autoEdit"]
allowRedirection = true

[[rule]]
toolName = "mcp_*"
decision = "ask_user"
priority = 999
`;

describe('parsePolicyFile', () => {
  it('reads a file of several rules, with sources and the autoEdit alias', () => {
    const { rules, warnings } = parsePolicyFile(VALID, 'team.toml', 'workspace');
    expect(warnings).toEqual([]);
    expect(rules).toEqual([
      {
        toolName: 'run_shell_command',
        commandPrefix: ['git status', 'git log'],
        decision: 'allow',
        priority: 100,
        tier: 'workspace',
        source: 'team.toml: rule 1',
      },
      {
        toolName: ['write_file', 'replace'],
        argsPattern: '\\x00"file_path":"secrets/',
        decision: 'deny',
        priority: 500,
        denyMessage: 'Secrets are off limits.',
        tier: 'workspace',
        source: 'team.toml: rule 2',
      },
      {
        toolName: 'run_shell_command',
        commandRegex: 'npm (test|run lint)',
        decision: 'allow',
        priority: 0,
        modes: ['default', 'auto_edit'],
        allowRedirection: true,
        tier: 'workspace',
        source: 'team.toml: rule 3',
      },
      { toolName: 'mcp_*', decision: 'ask_user', priority: 999, tier: 'workspace', source: 'team.toml: rule 4' },
    ]);
  });

  it('gives rules the engine applies as written', () => {
    const { rules } = parsePolicyFile(VALID, 'team.toml', 'user');
    const ctx = { mode: 'default' as const, plansDir: '.durable-agent/plans', workspaceRoot: '/ws' };
    const policy = { rules: [...defaultPolicy(ctx.plansDir), ...rules] };
    const shell = (command: string) => ({ name: 'run_shell_command', args: { command } });
    expect(evaluatePolicy(policy, shell('git log -3 && npm test'), ctx).decision).toBe('allow');
    expect(evaluatePolicy(policy, { name: 'write_file', args: { file_path: 'secrets/k', content: '' } }, ctx)).toEqual({
      decision: 'deny',
      message: 'Tool execution denied by policy. Secrets are off limits.',
      ruleSource: 'team.toml: rule 2',
    });
  });

  const rule = (body: string) => `[[rule]]\ntoolName = "x"\ndecision = "allow"\npriority = 1\n\n[[rule]]\n${body}\n`;

  it.each([
    ['missing priority', 'toolName = "x"\ndecision = "allow"', /priority is required/],
    [
      'priority 1000',
      'toolName = "x"\ndecision = "allow"\npriority = 1000',
      /priority must be an integer from 0 to 999/,
    ],
    [
      'priority as text',
      'toolName = "x"\ndecision = "allow"\npriority = "high"',
      /priority must be an integer from 0 to 999/,
    ],
    [
      'negative priority',
      'toolName = "x"\ndecision = "allow"\npriority = -1',
      /priority must be an integer from 0 to 999/,
    ],
    ['fractional priority', 'toolName = "x"\ndecision = "allow"\npriority = 1.5', /priority must be an integer/],
    [
      'bad decision',
      'toolName = "x"\ndecision = "maybe"\npriority = 1',
      /decision must be "allow", "deny" or "ask_user"/,
    ],
    ['missing toolName', 'decision = "allow"\npriority = 1', /toolName is required/],
    ['bad mode', 'toolName = "x"\ndecision = "allow"\npriority = 1\nmodes = ["sometimes"]', /modes/],
    [
      'bad argsPattern',
      'toolName = "x"\nargsPattern = "("\ndecision = "deny"\npriority = 1',
      /argsPattern is not a valid regular expression/,
    ],
    [
      'bad commandRegex',
      'toolName = "run_shell_command"\ncommandRegex = "[a"\ndecision = "deny"\npriority = 1',
      /commandRegex is not a valid regular expression/,
    ],
    [
      'commandPrefix with another tool',
      'toolName = "write_file"\ncommandPrefix = "git"\ndecision = "allow"\npriority = 1',
      /commandPrefix and commandRegex require toolName = "run_shell_command"/,
    ],
    [
      'commandPrefix with the shell among others',
      'toolName = ["run_shell_command", "web_fetch"]\ncommandPrefix = "git"\ndecision = "allow"\npriority = 1',
      /require toolName = "run_shell_command"/,
    ],
    [
      'both argsPattern and commandPrefix',
      'toolName = "run_shell_command"\nargsPattern = "x"\ncommandPrefix = "git"\ndecision = "allow"\npriority = 1',
      /argsPattern and commandPrefix cannot be combined/,
    ],
  ])('refuses a rule with %s, naming the file and the rule', (_case, body, problem) => {
    let error: unknown;
    try {
      parsePolicyFile(rule(body), '/p/bad.toml', 'user');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(PolicyFileError);
    expect((error as PolicyFileError).message).toMatch(/^\/p\/bad\.toml: rule 2: /);
    expect((error as PolicyFileError).message).toMatch(problem);
    expect((error as PolicyFileError).ruleIndex).toBe(1);
  });

  it('refuses a file that is not TOML, naming the file', () => {
    expect(() => parsePolicyFile('[[rule]\n', 'broken.toml', 'user')).toThrow(/^broken\.toml: invalid TOML/);
  });

  it('warns about unknown keys and safety checkers instead of failing', () => {
    const text = `${rule('toolName = "y"\ndecision = "deny"\npriority = 2\ncolour = "red"')}\n[[safety_checker]]\ntoolName = "*"\npriority = 1\n`;
    const { rules, warnings } = parsePolicyFile(text, 'w.toml', 'user');
    expect(rules.map((r) => r.toolName)).toEqual(['x', 'y']);
    expect(warnings).toEqual([
      'w.toml: [[safety_checker]] is not supported; ignored',
      'w.toml: rule 2: unknown key "colour"; ignored',
    ]);
  });

  it('skips, with a warning, rules whose conditions it cannot check, rather than widening them', () => {
    const text =
      rule('toolName = "*"\nsubagent = "github"\ndecision = "allow"\npriority = 2') +
      '\n[[rule]]\ntoolName = "z"\ninteractive = false\ndecision = "allow"\npriority = 3\n';
    const { rules, warnings } = parsePolicyFile(text, 'm.toml', 'user');
    expect(rules.map((r) => r.toolName)).toEqual(['x']);
    expect(warnings).toEqual([
      'm.toml: rule 2: skipped: its condition subagent is not supported',
      'm.toml: rule 3: skipped: it applies to headless mode only',
    ]);
  });

  it("narrows a rule with mcpName to that server's tools, under the names the model sees", () => {
    const text =
      rule('toolName = "*"\nmcpName = "github"\ndecision = "allow"\npriority = 2') +
      '\n[[rule]]\ntoolName = ["a", "b"]\nmcpName = "gh"\ndecision = "deny"\npriority = 3\n';
    const { rules, warnings } = parsePolicyFile(text, 'm.toml', 'user');
    expect(rules.map((r) => r.toolName)).toEqual(['x', 'mcp_github_*', ['mcp_gh_a', 'mcp_gh_b']]);
    expect(warnings).toEqual([]);
  });
});

describe('loadPolicyFiles', () => {
  it('reads *.toml from each folder with its tier, and extra files at the user tier', async () => {
    const one = (tool: string) => `[[rule]]\ntoolName = "${tool}"\ndecision = "deny"\npriority = 1\n`;
    await writePolicy('ws', 'b.toml', one('ws_b'));
    await writePolicy('ws', 'a.toml', one('ws_a'));
    await writePolicy('ws', 'notes.txt', 'not a policy');
    await writePolicy('user', 'u.toml', one('user'));
    await writePolicy('admin', 'x.toml', one('admin'));
    const extra = await writePolicy('elsewhere', 'extra.toml', one('extra'));
    const { rules, warnings } = await loadPolicyFiles({
      workspaceDir: path.join(tmp, 'ws'),
      userDir: path.join(tmp, 'user'),
      adminDir: path.join(tmp, 'admin'),
      extraFiles: [extra],
    });
    expect(warnings).toEqual([]);
    expect(rules.map((r) => [r.toolName, r.tier])).toEqual([
      ['ws_a', 'workspace'],
      ['ws_b', 'workspace'],
      ['user', 'user'],
      ['extra', 'user'],
      ['admin', 'admin'],
    ]);
    expect(rules[0].source).toBe(`${path.join(tmp, 'ws', 'a.toml')}: rule 1`);
  });

  it('treats missing folders as empty', async () => {
    await expect(loadPolicyFiles({ userDir: path.join(tmp, 'none'), workspaceDir: undefined })).resolves.toEqual({
      rules: [],
      warnings: [],
    });
  });

  it('fails on a bad file with PolicyFileError, and on a missing extra file', async () => {
    const bad = await writePolicy('user', 'bad.toml', '[[rule]]\ntoolName = "x"\ndecision = "allow"\n');
    await expect(loadPolicyFiles({ userDir: path.join(tmp, 'user') })).rejects.toThrow(
      `${bad}: rule 1: priority is required`,
    );
    await expect(loadPolicyFiles({ extraFiles: [path.join(tmp, 'gone.toml')] })).rejects.toBeInstanceOf(
      PolicyFileError,
    );
  });
});
