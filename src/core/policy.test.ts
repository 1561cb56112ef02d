import type { ToolKind } from '../tools/types';
import { defaultDecision, type PolicyDecision } from './policy';
import type { ApprovalMode } from './types';

const KINDS: ToolKind[] = ['read', 'search', 'edit', 'execute'];

/** Expected decision for each mode, by kind in the order of KINDS. */
const EXPECTED: Record<ApprovalMode, PolicyDecision[]> = {
  default: ['allow', 'allow', 'ask_user', 'ask_user'],
  auto_edit: ['allow', 'allow', 'allow', 'ask_user'],
  yolo: ['allow', 'allow', 'allow', 'allow'],
  plan: ['allow', 'allow', 'deny', 'deny'],
};

const cases = (Object.keys(EXPECTED) as ApprovalMode[]).flatMap((mode) =>
  KINDS.map((kind, i) => [mode, kind, EXPECTED[mode][i]] as const),
);

describe('defaultDecision', () => {
  it.each(cases)('mode %s, kind %s → %s', (mode, kind, expected) => {
    expect(defaultDecision({ name: `some_${kind}_tool`, kind }, mode).decision).toBe(expected);
  });

  it('explains a plan-mode denial to the model, naming the tool', () => {
    const { message } = defaultDecision({ name: 'write_file', kind: 'edit' }, 'plan');
    expect(message).toContain('write_file');
    expect(message).toMatch(/plan mode/);
  });

  it('gives no message when it does not deny', () => {
    expect(defaultDecision({ name: 'run_shell_command', kind: 'execute' }, 'default').message).toBeUndefined();
  });
});
