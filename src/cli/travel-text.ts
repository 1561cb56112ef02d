import type { ForkReport } from '../client/fork';
import type { TurnChanges } from '../client/look-back';
import type { RewindReport } from '../client/rewind';
import { selfCommand } from '../runtime/self-command';

/** Said after every rewind: what a workspace checkpoint does not hold. */
export const CANNOT_UNDO =
  'Checkpoints hold only the files inside the workspace: changes outside it, network effects (requests sent, ' +
  'pushes, deployments), processes started or stopped, and files the checkpoints leave out (.gitignore, the ' +
  'exclude list, the size caps) are as they were before this command.';

/** `rewind`'s report: what was put back, what was not, and how to go on or undo it. */
export function rewindText(report: RewindReport, undo: boolean): string {
  const lines = [
    undo ? `Undid the last rewind of ${report.sessionId}.` : `Rewound ${report.sessionId} to turn ${report.turn}.`,
  ];
  const files = report.files;
  if (files)
    lines.push(
      `Files: ${files.created.length} created, ${files.modified.length} modified, ${files.deleted.length} deleted` +
        pathsOf(files),
    );
  else lines.push('Files: left as they are.');
  lines.push(
    report.conversation
      ? `Conversation: the next prompt continues from ${undo ? 'where it stood before the rewind' : `turn ${report.turn}`}.`
      : 'Conversation: left as it is.',
  );
  lines.push(CANNOT_UNDO);
  lines.push(`Undo: ${selfCommand()} rewind ${report.sessionId} --undo`);
  lines.push(
    `Continue: ${selfCommand()} chat ${report.sessionId}   or   ${selfCommand()} run --session ${report.sessionId} PROMPT`,
  );
  return `${lines.join('\n')}\n`;
}

function pathsOf(files: NonNullable<RewindReport['files']>): string {
  const all = [
    ...files.created.map((p) => `+ ${p}`),
    ...files.modified.map((p) => `~ ${p}`),
    ...files.deleted.map((p) => `- ${p}`),
  ];
  return all.length === 0 ? '' : `\n${all.map((p) => `  ${p}`).join('\n')}`;
}

/** `fork`'s report: the new session and how to continue it. */
export function forkText(report: ForkReport, at: number): string {
  return (
    [
      report.sessionId,
      `Forked at turn ${at} into ${report.workspace}${report.worktree ? ' (a git worktree of the original repository)' : ''}.`,
      `Continue: ${selfCommand()} chat ${report.sessionId}   or   ${selfCommand()} run --session ${report.sessionId} PROMPT`,
    ].join('\n') + '\n'
  );
}

/** `checkpoints`' table: one line per turn, then one per call that changed files. */
export function checkpointsText(turns: TurnChanges[]): string {
  const lines: string[] = [];
  for (const turn of turns) {
    lines.push(`turn ${turn.turn}  ${turn.promptId}  ${turn.checkpoint ?? '(no checkpoint)'}`);
    for (const call of turn.calls) {
      const changes = [
        ...call.added.map((p) => `+${p}`),
        ...call.modified.map((p) => `~${p}`),
        ...call.deleted.map((p) => `-${p}`),
      ];
      lines.push(`  ${call.name} ${call.callId}: ${changes.join(' ') || 'no change'}`);
    }
  }
  return lines.length === 0 ? 'no turns yet\n' : `${lines.join('\n')}\n`;
}
