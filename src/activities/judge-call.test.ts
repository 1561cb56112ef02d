import { previewMarkers } from '../core/blob-marker';
import { defaultPolicy, evaluatePolicy, type PolicyRule } from '../core/policy/index';
import { externalizeLargeStrings } from '../store/blobs';
import { checkCompleteTask } from '../core/agents/complete-task';
import { PLANS_DIR } from '../tools/plan-mode';
import { useTempStore } from '../../test/helpers/activity-harness';
import { judgeCall, type JudgeCallInput } from './judge-call';

const tmp = useTempStore('da-judge-call-');
const PAD = ' '.repeat(2100);
const context = (mode: JudgeCallInput['context']['mode']) => ({
  mode,
  plansDir: PLANS_DIR,
  workspaceRoot: '/home/user/project',
});
const allowGitStatus: PolicyRule = {
  toolName: 'run_shell_command',
  commandPrefix: 'git status',
  decision: 'allow',
  priority: 100,
  tier: 'user',
};
const denyRm: PolicyRule = {
  toolName: 'run_shell_command',
  commandPrefix: 'rm',
  decision: 'deny',
  priority: 100,
  tier: 'user',
};

/** The call as the workflow holds it: long strings already markers. */
async function held(
  name: string,
  args: Record<string, unknown>,
): Promise<{ name: string; args: Record<string, unknown> }> {
  return { name, args: await externalizeLargeStrings(args, tmp.store) };
}

describe('judgeCall', () => {
  it('judges the full command, where the preview alone would be allowed', async () => {
    const call = await held('run_shell_command', { command: `git status${PAD}; touch PWNED` });
    const rules = [...defaultPolicy(PLANS_DIR), allowGitStatus];
    expect(
      evaluatePolicy(
        { rules },
        { name: call.name, args: previewMarkers(call.args) as Record<string, unknown> },
        context('default'),
      ).decision,
    ).toBe('allow');
    expect((await judgeCall(tmp.store, { ...call, rules, context: context('default') })).verdict.decision).toBe(
      'ask_user',
    );
  });

  it('keeps a deny after long padding in yolo, with a message short enough for history', async () => {
    const call = await held('run_shell_command', { command: `echo hi${PAD}; rm -rf src` });
    const judged = await judgeCall(tmp.store, {
      ...call,
      rules: [...defaultPolicy(PLANS_DIR), denyRm],
      context: context('yolo'),
    });
    expect(judged.verdict.decision).toBe('deny');
    expect(judged.verdict.message!.length).toBeLessThan(1100);
  });

  it('refuses in plan mode a plan path that climbs out after long padding', async () => {
    const call = await held('write_file', {
      file_path: `${PLANS_DIR}/a.md${'/'.repeat(2100)}../../../src/app.js`,
      content: 'x',
    });
    const judged = await judgeCall(tmp.store, { ...call, rules: defaultPolicy(PLANS_DIR), context: context('plan') });
    expect(judged.verdict.decision).toBe('deny');
  });

  it('builds the proceed_always rule from the full command', async () => {
    const call = await held('run_shell_command', { command: `git status${PAD}; touch PWNED` });
    const judged = await judgeCall(tmp.store, {
      ...call,
      rules: defaultPolicy(PLANS_DIR),
      context: context('default'),
      allowRuleFor: 'default',
    });
    expect(judged.allowRule?.commandPrefix).toEqual(['git status', 'touch PWNED']);
  });

  it('checks a sub-agent output schema on the full text, not on the preview', async () => {
    const outputSchema = {
      type: 'object' as const,
      properties: { report: { type: 'string' as const, minLength: 3000 } },
      required: ['report'],
    };
    const judge = async (report: string) =>
      judgeCall(tmp.store, {
        ...(await held('complete_task', { report })),
        rules: [],
        context: context('yolo'),
        outputSchema,
      });
    const long = await held('complete_task', { report: 'r'.repeat(5000) });
    expect(checkCompleteTask(previewMarkers(long.args), outputSchema).ok).toBe(false);
    expect((await judge('r'.repeat(5000))).invalid).toBeUndefined();
    expect((await judge('r'.repeat(2500))).invalid?.message).toMatch(/at least 3000 characters/);
  });

  it('answers a marker whose blob is gone as invalid, naming no store path', async () => {
    const args = { command: { $blob: `sha256:${'c'.repeat(64)}`, size: 3000, preview: 'echo' } };
    const judged = await judgeCall(tmp.store, { name: 'run_shell_command', args, rules: [], context: context('yolo') });
    expect(judged.invalid?.message).toMatch(/no longer in the transcript store/);
    expect(judged.invalid?.message).not.toContain(tmp.dir);
    expect(judged.verdict.decision).toBe('deny');
  });
});
