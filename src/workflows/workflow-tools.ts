import type { ApprovalMode } from '../core/types';
import { PLANS_DIR } from '../tools/plan-mode';
import { emit, type CallRecord, type PromptState } from './prompt-state';

/**
 * Tools the workflow carries out itself because they change the prompt, not the world: entering
 * and leaving plan mode. They run after the policy (and, if asked, a person) allowed them.
 */
export function runWorkflowTool(state: PromptState, record: CallRecord): string {
  if (record.name === 'enter_plan_mode') {
    state.modeBeforePlan = state.mode;
    setMode(state, 'plan');
    return (
      `Plan mode is on. Only read-only tools run now, and write_file/replace may only write Markdown files under ${PLANS_DIR}/. ` +
      'Investigate, write the plan there, then call exit_plan_mode with its file name.'
    );
  }
  const next: ApprovalMode = record.decision?.mode ?? (state.modeBeforePlan && state.modeBeforePlan !== 'plan' ? state.modeBeforePlan : 'default');
  setMode(state, next);
  return `The plan in ${String(record.args.plan_filename)} was approved. The approval mode is now ${next}: carry out the plan.`;
}

export function setMode(state: PromptState, mode: ApprovalMode): void {
  if (state.mode === mode) return;
  state.mode = mode;
  emit(state, { type: 'approval_mode', mode });
}

/** Gemini CLI offers `enter_plan_mode` outside plan mode and `exit_plan_mode` only inside it. */
export function toolsForMode(names: readonly string[], mode: ApprovalMode): string[] {
  return names.filter((name) => (mode === 'plan' ? name !== 'enter_plan_mode' : name !== 'exit_plan_mode'));
}
