/**
 * `ask_user` questions asked in the editor. With an editor that declared form elicitation, all of
 * a call's questions go as one `elicitation/create` form; otherwise each choice or yes/no question
 * is a `session/request_permission` whose options are its answers. A free-text question has no
 * place in a permission request: without elicitation it is shown with the command that answers it.
 * The prompt holds the question, so an answer given elsewhere withdraws the editor's request.
 */
import type {
  CreateElicitationRequest,
  ElicitationContentValue,
  ElicitationPropertySchema,
  ElicitationSchema,
  PermissionOption,
} from '@agentclientprotocol/sdk';
import { z } from 'zod';
import { questionHint } from '../runtime/question-hint';
import { MAX_ANSWER_CHARS, questionSchema, type Question, type QuestionAnswerPayload } from '../core/questions';
import type { EditorChannel } from './channel';

type QuestionTarget = EditorChannel & { sessionId: string; promptId: string };

/** How often an editor that answers the form wrongly is asked again before the question is left to other answers. */
const ELICITATION_ATTEMPTS = 3;
const DISMISS = 'dismiss';
const questionList = z.array(questionSchema).min(1);

/** Asks `callId`'s questions and sends the editor's answer; a withdrawn or cancelled request leaves them waiting. */
export async function askQuestions(target: QuestionTarget, callId: string, raw: unknown, signal: AbortSignal) {
  const parsed = questionList.safeParse(raw);
  if (!parsed.success) return;
  const questions = parsed.data;
  const answer = target.elicit
    ? await elicitAnswer(target, callId, questions, signal)
    : questions.every((q) => choicesOf(q))
      ? await pickAnswer(target, callId, questions, signal)
      : await showHint(target, callId, questions);
  if (!answer || signal.aborted) return;
  await target.client
    .answer(target.promptId, answer)
    .catch((err: unknown) => target.logger.info({ err: String(err), callId }, 'the question was not answered'));
}

async function elicitAnswer(
  target: QuestionTarget,
  callId: string,
  questions: Question[],
  signal: AbortSignal,
): Promise<QuestionAnswerPayload | undefined> {
  let problem: string | undefined;
  for (let attempt = 0; attempt < ELICITATION_ATTEMPTS; attempt++) {
    const request = elicitationRequest(target.sessionId, callId, questions, problem);
    const response = await target.elicit!(request, signal);
    if (signal.aborted || response.action === 'cancel') return undefined;
    if (response.action === 'decline') return { callId, dismissed: true };
    if (response.action !== 'accept') problem = `unknown action ${response.action}`;
    else {
      const read = formAnswers(questions, (response.content ?? {}) as Record<string, unknown>);
      if (typeof read !== 'string') return { callId, answers: read };
      problem = read;
    }
    target.logger.warn({ callId, problem }, 'the editor’s answer does not fit the questions');
  }
  return undefined;
}

/** The form for a call's questions: one field a question, keyed by its number (the answer's own keys). */
export function elicitationRequest(
  sessionId: string,
  callId: string,
  questions: Question[],
  problem?: string,
): CreateElicitationRequest & { requestedSchema: ElicitationSchema } {
  const asked = questions.length === 1 ? questions[0].question : `The agent asks ${questions.length} questions.`;
  const properties = Object.fromEntries(questions.map((q, i) => [String(i), fieldOf(q)]));
  return {
    mode: 'form',
    sessionId,
    toolCallId: callId,
    message: problem ? `Your answer was not recorded (${problem}). ${asked}` : asked,
    requestedSchema: { type: 'object', properties, required: Object.keys(properties) },
  };
}

function fieldOf(q: Question): ElicitationPropertySchema {
  const about = { title: q.header || q.question, description: q.question };
  if (q.type === 'yesno') return { type: 'boolean', ...about };
  const options = (q.options ?? []).map((o) => ({ const: o.label, title: o.label, description: o.description }));
  if (options.length > 0 && q.multiSelect) return { type: 'array', ...about, items: { anyOf: options }, minItems: 1 };
  if (options.length > 0) return { type: 'string', ...about, oneOf: options };
  return { type: 'string', ...about, minLength: 1, maxLength: MAX_ANSWER_CHARS };
}

/** The form's values as answers by question number, or what is wrong with them. */
export function formAnswers(questions: Question[], content: Record<string, unknown>): Record<string, string> | string {
  const answers: Record<string, string> = {};
  for (const [i, q] of questions.entries()) {
    const value = content[String(i)] as ElicitationContentValue | undefined;
    const read = fieldAnswer(q, value);
    if (read === undefined) return `field ${i} (${q.header || q.question}) needs ${expected(q)}`;
    answers[String(i)] = read;
  }
  return answers;
}

function fieldAnswer(q: Question, value: ElicitationContentValue | undefined): string | undefined {
  const labels = (q.options ?? []).map((o) => o.label);
  if (q.type === 'yesno') return typeof value === 'boolean' ? (value ? 'yes' : 'no') : undefined;
  if (labels.length > 0 && q.multiSelect)
    return Array.isArray(value) && value.length > 0 && value.every((v) => labels.includes(v))
      ? value.join(', ')
      : undefined;
  if (labels.length > 0) return typeof value === 'string' && labels.includes(value) ? value : undefined;
  return typeof value === 'string' && value.trim() && value.length <= MAX_ANSWER_CHARS ? value.trim() : undefined;
}

function expected(q: Question): string {
  if (q.type === 'yesno') return 'true or false';
  const labels = (q.options ?? []).map((o) => JSON.stringify(o.label)).join(', ');
  if (labels) return q.multiSelect ? `a list of some of ${labels}` : `one of ${labels}`;
  return `a text of 1 to ${MAX_ANSWER_CHARS} characters`;
}

/** The answers a permission request can offer for `q`: its options, or yes and no; none for a free-text question. */
function choicesOf(q: Question): string[] | undefined {
  if (q.type === 'yesno') return ['yes', 'no'];
  const labels = (q.options ?? []).map((o) => o.label);
  return labels.length > 0 ? labels : undefined;
}

/** Each question as a permission request in turn, its answers as options (a multi-select question takes one). */
async function pickAnswer(
  target: QuestionTarget,
  callId: string,
  questions: Question[],
  signal: AbortSignal,
): Promise<QuestionAnswerPayload | undefined> {
  const answers: Record<string, string> = {};
  for (const [i, q] of questions.entries()) {
    const choices = choicesOf(q)!;
    const options: PermissionOption[] = choices.map((c, j) => ({ optionId: String(j), name: c, kind: 'allow_once' }));
    options.push({ optionId: DISMISS, name: 'Decline to answer', kind: 'reject_once' });
    const title = questions.length > 1 ? `${q.question} (${i + 1} of ${questions.length})` : q.question;
    const toolCall = { toolCallId: callId, title, kind: 'other' as const, status: 'pending' as const };
    const response = await target.ask({ sessionId: target.sessionId, toolCall, options }, signal);
    if (signal.aborted || response.outcome.outcome !== 'selected') return undefined;
    if (response.outcome.optionId === DISMISS) return { callId, dismissed: true };
    const picked = choices[Number(response.outcome.optionId)];
    if (picked === undefined) return undefined;
    answers[String(i)] = picked;
  }
  return { callId, answers };
}

/** Free-text questions without elicitation: shown, with the commands that answer them from any shell. */
async function showHint(target: QuestionTarget, callId: string, questions: Question[]): Promise<undefined> {
  const hint = questionHint(target.promptId, callId, questions);
  await target.notify({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `\n${hint}` } });
  return undefined;
}
