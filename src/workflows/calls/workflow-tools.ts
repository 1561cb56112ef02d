import { hasBlobMarkers, previewMarkers } from '../../core/blob-marker';
import type { ApprovalMode } from '../../core/types';
import { checkCompleteTask, COMPLETE_TASK_ACCEPTED } from '../../core/agents/complete-task';
import { PLANS_DIR } from '../../tools/plan-mode';
import { invokeAgent } from './agent-calls';
import { askUser } from './questions';
import type { PromptState } from '../state/prompt-state';
import { emit, setMode } from '../run/records';
import type { CallRecord } from '../api';
import type { WorkflowToolResult } from './tool-result';
import { describeTodos, todosOf } from '../../tools/write-todos';
import { updateTopics } from '../../tools/update-topic';
import { activateSkill } from './skill-calls';
import type { PromptRun } from '../run/prompt-run';
import { isPatched, PATCHES } from '../patches';
import { rememberModeBeforePlan, setTodos, setTopics } from '../run/progress';

/**
 * Tools the workflow carries out itself because they change the prompt, not the world: plan mode,
 * `complete_task` (a sub-agent's result), `invoke_agent` (a child workflow), `write_todos` (the todo
 * list), `update_topic` (the chapters), `ask_user` (a question that waits for the user's answer) and
 * `activate_skill` (a skill the prompt found, read by an activity). They run after the policy (and, if
 * asked, a person) allowed them.
 */
export async function runWorkflowTool(run: PromptRun, record: CallRecord): Promise<WorkflowToolResult> {
  const state = run.state;
  switch (record.name) {
    case 'enter_plan_mode':
      return { ok: true, text: enterPlanMode(state) };
    case 'exit_plan_mode':
      return { ok: true, text: exitPlanMode(state, record) };
    case 'complete_task':
      return completeTask(run, record);
    case 'invoke_agent':
      return invokeAgent(state, record);
    case 'write_todos':
      return { ok: true, text: writeTodos(state, record) };
    case 'update_topic':
      return { ok: true, text: updateTopic(state, record) };
    case 'ask_user':
      return askUser(state, record, run.subagent !== undefined);
    case 'activate_skill':
      return activateSkill(state, record, run.acts);
    default:
      return { ok: false, text: `${record.name} cannot run here.` };
  }
}

function enterPlanMode(state: PromptState): string {
  rememberModeBeforePlan(state);
  setMode(state, 'plan');
  return (
    `Plan mode is on. Only read-only tools run now, and write_file/replace may only write Markdown files under ` +
    `${PLANS_DIR}/. ` +
    'Investigate, write the plan there, then call exit_plan_mode with its file name.'
  );
}

function exitPlanMode(state: PromptState, record: CallRecord): string {
  const next: ApprovalMode =
    record.decision?.mode ??
    (state.progress.modeBeforePlan && state.progress.modeBeforePlan !== 'plan'
      ? state.progress.modeBeforePlan
      : 'default');
  setMode(state, next);
  return (
    `The plan in ${String(record.args.plan_filename)} was approved. The approval mode is now ` +
    `${next}: carry out the plan.`
  );
}

/** The list replaces the previous one in the prompt's progress (carried across continue-as-new). */
function writeTodos(state: PromptState, record: CallRecord): string {
  const todos = todosOf(record.args);
  setTodos(state, todos);
  emit(state, { type: 'todos', todos });
  return describeTodos(todos);
}

/** The chapters live in the prompt's progress (carried across continue-as-new), like the todo list. */
function updateTopic(state: PromptState, record: CallRecord): string {
  const update = updateTopics(state.progress.topics ?? [], record.args, state.progress.turns);
  setTopics(state, update.topics);
  const { title, summary, intent } = update.topics[update.topics.length - 1];
  emit(state, {
    type: 'topic',
    title,
    ...(summary && update.opened ? { summary } : {}),
    intent,
    opened: update.opened,
  });
  return update.text;
}

/** Only a sub-agent has an output schema; an accepted output ends its run with `goal`. */
function completeTask(run: PromptRun, record: CallRecord): WorkflowToolResult {
  const agent = run.subagent?.definition;
  if (!agent) return { ok: false, text: 'complete_task is only for sub-agents.' };
  // With blob markers the schema was checked on the full output by `judge` (call-policy), not on previews.
  const judged = hasBlobMarkers(record.args) && isPatched(PATCHES.fullArgs);
  const check = judged ? undefined : checkCompleteTask(previewMarkers(record.args), agent.outputSchema);
  if (check && !check.ok) return { ok: false, text: check.message };
  run.complete(record.args);
  return { ok: true, text: COMPLETE_TASK_ACCEPTED };
}

/** Gemini CLI offers `enter_plan_mode` outside plan mode and `exit_plan_mode` only inside it. */
export function toolsForMode(names: readonly string[], mode: ApprovalMode): string[] {
  return names.filter((name) => (mode === 'plan' ? name !== 'enter_plan_mode' : name !== 'exit_plan_mode'));
}
