import { codebaseInvestigatorAgent } from './builtins';
import {
  failureReport,
  finishInstructions,
  isRecoverable,
  recoveryMessage,
  recoveryTurnToolMessage,
  terminationMessage,
  unauthorizedToolMessage,
  type SubagentTerminateReason,
} from './recovery';

const LIMITS = { maxTurns: 20, maxMinutes: 10, recoveryGraceSeconds: 60 };

describe('recovery turn', () => {
  it('is granted for max_turns, timeout and no_complete_task only', () => {
    const reasons: SubagentTerminateReason[] = ['goal', 'max_turns', 'timeout', 'no_complete_task', 'aborted', 'error'];
    expect(reasons.filter(isRecoverable)).toEqual(['max_turns', 'timeout', 'no_complete_task']);
  });

  it('states the reason, the grace period, and that only complete_task is acceptable', () => {
    const message = recoveryMessage('max_turns', LIMITS);
    expect(message).toBe(
      [
        'STOP. You have used all 20 turns this task was allowed.',
        'You have one last reply and about 60 seconds. In it, call complete_task and nothing else,',
        'with the most useful output you can give from what you have found so far. Where the work is',
        'incomplete, say so in the output: what was done, what was not, and what you would check next.',
        'Call no other tool: a reply without an accepted complete_task ends the task without a result.',
      ].join('\n'),
    );
    expect(recoveryMessage('timeout', { ...LIMITS, recoveryGraceSeconds: 5 })).toMatch(
      /^STOP\. The time allowed for this task \(10 minutes\) has run out\.\nYou have one last reply and about 5 seconds\./,
    );
    expect(recoveryMessage('no_complete_task', LIMITS)).toMatch(/^STOP\. Your last reply called no tool/);
  });
});

describe('termination messages', () => {
  it('uses Gemini CLI’s wording when recovery fails', () => {
    expect(terminationMessage('max_turns', LIMITS)).toBe('Agent reached max turns limit (20).');
    expect(terminationMessage('timeout', { ...LIMITS, maxMinutes: 1 })).toBe('Agent timed out after 1 minute.');
    expect(terminationMessage('no_complete_task', LIMITS)).toBe(
      "Agent stopped calling tools but did not call 'complete_task'.",
    );
    expect(terminationMessage('aborted', LIMITS)).toBe('Agent was cancelled.');
    expect(terminationMessage('error', LIMITS, 'model call failed (503)')).toBe(
      'Agent failed: model call failed (503)',
    );
  });

  it('tells the parent what happened and what was kept when the run ends without output', () => {
    const report = failureReport('timeout', { ...LIMITS, turns: 1 });
    expect(report).toMatch(/^Agent timed out after 10 minutes\. In the 1 turn it took /);
    expect(report).toContain('no output was kept');
    expect(report).toContain('Changes it made to files in the workspace remain.');
    expect(failureReport('error', { ...LIMITS, turns: 3 }, 'The next request does not fit.')).toBe(
      'The next request does not fit.',
    );
    expect(failureReport('aborted', { ...LIMITS, turns: 3 })).toBe('Agent was cancelled.');
  });
});

describe('tool refusals', () => {
  it('names the tool, the agent and what it may call', () => {
    expect(unauthorizedToolMessage('write_file', 'codebase_investigator', ['read_file', 'glob'])).toBe(
      "Tool 'write_file' is not available to the codebase_investigator agent, so the call was not run. You can " +
        'call: read_file, glob, complete_task.',
    );
    expect(recoveryTurnToolMessage('glob')).toBe(
      "Tool 'glob' was not run: in this final turn only complete_task is accepted.",
    );
  });
});

describe('finishInstructions', () => {
  it('names the output fields and the limits', () => {
    const text = finishInstructions(codebaseInvestigatorAgent);
    expect(text).toContain('You have at most 50 turns and 10 minutes.');
    expect(text).toContain(
      'Finish by calling complete_task, alone in its turn. Its arguments are your output (report);',
    );
  });
});
