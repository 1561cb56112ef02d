import { defaultPolicy, evaluatePolicy } from '../core/policy/index';
import { allowedByDefault, asksByDefault, confirmationOf, isReadOnly, MUTATOR_KINDS, type ToolFacts } from './facts';
import { TOOLS } from './index';
import { PLANS_DIR } from './plan-mode';

const kindOf = (name: string) => TOOLS.find((tool) => tool.name === name)?.kind;

describe('tool facts', () => {
  // Gemini CLI 0.61.0's `Kind` of each tool it also has (read_tool_output and save_memory are ours).
  it.each([
    ['read_file', 'read'],
    ['write_file', 'edit'],
    ['replace', 'edit'],
    ['list_directory', 'search'],
    ['glob', 'search'],
    ['grep_search', 'search'],
    ['run_shell_command', 'execute'],
    ['web_fetch', 'fetch'],
    ['google_web_search', 'search'],
    ['ask_user', 'communicate'],
    ['write_todos', 'other'],
    ['enter_plan_mode', 'plan'],
    ['exit_plan_mode', 'plan'],
    ['activate_skill', 'other'],
    ['update_topic', 'think'],
    ['list_background_processes', 'read'],
    ['read_background_output', 'read'],
    ['invoke_agent', 'agent'],
    ['complete_task', 'other'],
  ])('%s is of Gemini CLI’s kind %s', (name, kind) => {
    expect(kindOf(name)).toBe(kind);
  });

  it('count as read-only only the reading, searching and fetching kinds', () => {
    const readOnly = TOOLS.filter((tool) => isReadOnly(tool)).map((tool) => tool.name);
    expect(readOnly).not.toContain('complete_task');
    expect(readOnly).not.toContain('write_todos');
    expect(readOnly).toContain('web_fetch');
  });

  it('say what an approval shows', () => {
    const shows = (name: string) => confirmationOf(TOOLS.find((tool) => tool.name === name)!);
    expect([shows('write_file'), shows('replace'), shows('run_shell_command'), shows('web_fetch')]).toEqual([
      'edit',
      'edit',
      'exec',
      'info',
    ]);
  });

  it('never both allow and ask', () => {
    expect(TOOLS.filter((tool) => allowedByDefault(tool) && asksByDefault(tool)).map((t) => t.name)).toEqual([]);
  });
});

/**
 * The default policy follows the facts, so a new tool needs no list: its file, its line in the
 * registry and its test. Checked for every registered tool, with a made-up tool's facts alongside.
 */
describe('the default policy, derived from the facts', () => {
  const decide = (name: string, mode: 'default' | 'auto_edit' | 'plan', args: Record<string, unknown> = {}) =>
    evaluatePolicy(
      { rules: defaultPolicy(PLANS_DIR) },
      { name, args },
      { mode, plansDir: PLANS_DIR, workspaceRoot: '/w' },
    ).decision;
  const ownRules = ['ask_user', 'invoke_agent', 'enter_plan_mode', 'exit_plan_mode'];

  it.each(TOOLS.filter((tool) => !ownRules.includes(tool.name)).map((tool) => [tool.name, tool] as const))(
    '%s is allowed or asked as its facts say',
    (name, tool) => {
      const expected = allowedByDefault(tool) ? 'allow' : 'ask_user';
      expect(decide(name, 'default')).toBe(expected);
      const asksInPlan = asksByDefault(tool) && !MUTATOR_KINDS.includes(tool.kind);
      const inPlan = allowedByDefault(tool) ? 'allow' : asksInPlan ? 'ask_user' : 'deny';
      expect(decide(name, 'plan')).toBe(inPlan);
    },
  );

  it('web_fetch (kind fetch) asks, and runs in auto_edit, as in Gemini CLI', () => {
    expect([decide('web_fetch', 'default'), decide('web_fetch', 'auto_edit'), decide('web_fetch', 'plan')]).toEqual([
      'ask_user',
      'allow',
      'ask_user',
    ]);
  });

  it('lets the prompt-only tools run in every mode, though they are not read-only', () => {
    for (const name of ['write_todos', 'update_topic', 'complete_task'])
      expect([decide(name, 'default'), decide(name, 'plan')]).toEqual(['allow', 'allow']);
  });

  it('reads a made-up tool’s facts the same way', () => {
    const reader: ToolFacts = { kind: 'read' };
    const fetcher: ToolFacts = { kind: 'fetch' };
    const mover: ToolFacts = { kind: 'move' };
    expect([reader, fetcher, mover].map((facts) => [allowedByDefault(facts), asksByDefault(facts)])).toEqual([
      [true, false],
      [false, true],
      [false, true],
    ]);
  });
});
