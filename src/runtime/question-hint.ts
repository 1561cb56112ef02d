import { selfCommand } from './self-command';

/** What to type, from any shell, to answer an `ask_user` call: the questions, then the commands. */
export function questionHint(workflowId: string, callId: string, questions: unknown): string {
  const list = Array.isArray(questions) ? (questions as QuestionView[]) : [];
  const example = JSON.stringify({ callId, answers: list.map(() => '...') });
  return [
    `? the agent asks (call ${callId}):`,
    ...list.flatMap((q, i) => describeQuestion(q, i).map((line) => `  ${line}`)),
    `  answer:  ${selfCommand()} answer ${workflowId} ${callId} ${list.map(() => "--answer '...'").join(' ')}`,
    `  decline: ${selfCommand()} answer ${workflowId} ${callId} --dismiss`,
    `  or:      temporal workflow signal --workflow-id ${workflowId} --name answerQuestion --input '${example}'`,
    '',
  ].join('\n');
}

interface QuestionView {
  question?: string;
  header?: string;
  type?: string;
  options?: { label?: string; description?: string }[];
  multiSelect?: boolean;
}

/** One question as lines: its number, header and text, then its options. */
export function describeQuestion(q: QuestionView, index: number): string[] {
  const kind = q.type === 'yesno' ? ' (yes/no)' : q.multiSelect ? ' (one or more, comma-separated)' : '';
  const lines = [`${index}. ${q.header ? `[${q.header}] ` : ''}${q.question ?? ''}${kind}`];
  for (const option of q.options ?? [])
    lines.push(`   - ${option.label ?? ''}${option.description ? `: ${option.description}` : ''}`);
  return lines;
}
