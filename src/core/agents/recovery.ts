import type { AgentDefinition } from './definition';

/**
 * How a sub-agent run ends: the closed set of reasons, the rules every sub-agent
 * is given about finishing, the final warning turn (recovery turn) and the texts of the endings.
 * Pure text builders: the child workflow decides when each applies.
 */

/**
 * `goal`: complete_task accepted (in a normal or a recovery turn). `max_turns`, `timeout`,
 * `no_complete_task` (a reply without function calls): budget or protocol ran out and the recovery
 * turn did not produce an accepted complete_task either. `aborted`: cancelled from outside.
 * `error`: anything else (a failed model call, an internal fault).
 */
export type SubagentTerminateReason = 'goal' | 'max_turns' | 'timeout' | 'no_complete_task' | 'aborted' | 'error';

/** The reasons that earn one recovery turn before the run ends. */
export type RecoverableReason = 'max_turns' | 'timeout' | 'no_complete_task';

export function isRecoverable(reason: SubagentTerminateReason): reason is RecoverableReason {
  return reason === 'max_turns' || reason === 'timeout' || reason === 'no_complete_task';
}

type Limits = Pick<AgentDefinition, 'maxTurns' | 'maxMinutes' | 'recoveryGraceSeconds'>;

const WHY: Record<RecoverableReason, (limits: Limits) => string> = {
  max_turns: (l) => `You have used all ${l.maxTurns} turns this task was allowed.`,
  timeout: (l) => `The time allowed for this task (${formatMinutes(l.maxMinutes)}) has run out.`,
  no_complete_task: () =>
    'Your last reply called no tool, so the task has not been submitted: a reply without complete_task ends nothing.',
};

/**
 * The user message of the recovery turn: why the run stopped, and that the only acceptable reply is
 * a complete_task call with the best output it has, saying what is unfinished, within the grace period.
 */
export function recoveryMessage(reason: RecoverableReason, limits: Limits): string {
  return [
    `STOP. ${WHY[reason](limits)}`,
    `You have one last reply and about ${limits.recoveryGraceSeconds} seconds. In it, call complete_task and ` +
      `nothing else,`,
    'with the most useful output you can give from what you have found so far. Where the work is',
    'incomplete, say so in the output: what was done, what was not, and what you would check next.',
    'Call no other tool: a reply without an accepted complete_task ends the task without a result.',
  ].join('\n');
}

/** The result text when a run ends without an accepted complete_task (Gemini CLI's wording). */
export function terminationMessage(
  reason: Exclude<SubagentTerminateReason, 'goal'>,
  limits: Limits,
  detail?: string,
): string {
  switch (reason) {
    case 'max_turns':
      return `Agent reached max turns limit (${limits.maxTurns}).`;
    case 'timeout':
      return `Agent timed out after ${formatMinutes(limits.maxMinutes)}.`;
    case 'no_complete_task':
      return "Agent stopped calling tools but did not call 'complete_task'.";
    case 'aborted':
      return 'Agent was cancelled.';
    case 'error':
      return `Agent failed${detail ? `: ${detail}` : '.'}`;
  }
}

/**
 * What the agent that started a failed run is told: what happened (Gemini CLI's termination text),
 * that the final warning turn did not bring an output either, and what is left of the work. An
 * `error` run reports its own detail.
 */
export function failureReport(
  reason: Exclude<SubagentTerminateReason, 'goal'>,
  limits: Limits & { turns: number },
  detail?: string,
): string {
  if (!isRecoverable(reason)) return detail ?? terminationMessage(reason, limits);
  return [
    terminationMessage(reason, limits),
    `In the ${limits.turns} turn${limits.turns === 1 ? '' : 's'} it took it did not submit its output with`,
    'complete_task, not even in the final turn it was given for that, so no output was kept: nothing it found',
    'reaches you but this message. Changes it made to files in the workspace remain. Do the rest yourself, or',
    'start the agent again with a narrower task.',
  ].join(' ');
}

/**
 * The error result for a call to a tool outside the agent's allowed set (the call is not run).
 * `allowed` excludes complete_task, which is always listed.
 */
export function unauthorizedToolMessage(toolName: string, agentName: string, allowed: readonly string[]): string {
  const names = [...allowed, 'complete_task'].join(', ');
  return (
    `Tool '${toolName}' is not available to the ${agentName} agent, so the call was not run. You can call: ` +
    `${names}.`
  );
}

/** The error result for a tool call made in the recovery turn, which only complete_task may use. */
export function recoveryTurnToolMessage(toolName: string): string {
  return `Tool '${toolName}' was not run: in this final turn only complete_task is accepted.`;
}

/**
 * Appended to every sub-agent's system prompt: it runs unattended, and it ends only by calling
 * complete_task alone in its turn, with these output fields.
 */
export function finishInstructions(agent: Pick<AgentDefinition, 'outputSchema' | 'maxTurns' | 'maxMinutes'>): string {
  const fields = Object.keys(agent.outputSchema.properties ?? {});
  const listed = fields.length > 0 ? fields.join(', ') : 'the output';
  return [
    '# Running as a sub-agent',
    '- Nobody reads your messages while you work and nobody will answer questions: decide for yourself,',
    '  and use the tools to find what you need.',
    '- Give paths relative to the workspace root, or absolute paths inside it.',
    '- If a tool call is refused, do not repeat it: find another way, or report the obstacle.',
    `- You have at most ${agent.maxTurns} turns and ${formatMinutes(agent.maxMinutes)}.`,
    `- Finish by calling complete_task, alone in its turn. Its arguments are your output (${listed});`,
    '  nothing else you write reaches the agent that sent you. If complete_task reports a problem with',
    '  the output, fix exactly what it names and call it again.',
  ].join('\n');
}

function formatMinutes(minutes: number): string {
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}
