import { log, setHandler } from '@temporalio/workflow';
import { waitForPerson } from './wait-for-person';
import { describeIssues } from '../../core/confirmation';
import { echo, payloadProblem } from '../../core/message-input';
import { answerText, normaliseAnswer, questionAnswerSchema, type QuestionAnswer } from '../../core/questions';
import { answerQuestionSignal, submitAnswerUpdate, type CallRecord } from '../api';
import type { PromptState } from '../state/prompt-state';
import { emit, publishStatus } from '../run/records';
import type { WorkflowToolResult } from './tool-result';
import { setCallStatus } from '../run/book';

/**
 * Checks an answer against the prompt's state. Returns the answer, normalised, or the reason it
 * cannot apply; shared by the signal (a warning event) and the update's validator (a rejection),
 * so a bad answer never wedges the prompt (invariant 5).
 */
export function checkAnswer(
  state: PromptState,
  payload: unknown,
): { ok: true; value: QuestionAnswer } | { ok: false; reason: string } {
  const problem = payloadProblem(payload);
  if (problem) return { ok: false, reason: `malformed answerQuestion: ${problem}` };
  const shape = questionAnswerSchema.safeParse(payload);
  if (!shape.success)
    return { ok: false, reason: `malformed answerQuestion: ${echo(describeIssues(shape.error), 300)}` };
  const callId = echo(shape.data.callId);
  if (state.finished) return { ok: false, reason: `the prompt has finished; call ${callId} can no longer be answered` };
  const call = state.book.calls.get(shape.data.callId);
  if (!call) {
    const waiting = [...state.book.calls.values()].filter(isWaiting).map((c) => c.callId);
    return {
      ok: false,
      reason: `unknown callId ${callId}; questions awaiting an answer: ${waiting.join(', ') || 'none'}`,
    };
  }
  if (call.answer) return { ok: false, reason: `call ${callId} was already answered` };
  if (call.status !== 'awaiting_answer')
    return {
      ok: false,
      reason: `call ${callId} (${call.name}) is not a question awaiting an answer (it is ${call.status})`,
    };
  const questions = call.args.questions;
  return normaliseAnswer(payload, Array.isArray(questions) ? questions : []);
}

export function registerQuestionHandlers(state: PromptState): void {
  setHandler(answerQuestionSignal, (payload: unknown) => {
    const check = checkAnswer(state, payload);
    if (!check.ok) {
      log.warn('answerQuestion ignored', { reason: check.reason });
      emit(state, { type: 'warning', message: `answerQuestion ignored: ${check.reason}` });
      return;
    }
    state.book.calls.get(check.value.callId)!.answer = check.value;
  });
  setHandler(
    submitAnswerUpdate,
    (payload: unknown) => {
      const check = checkAnswer(state, payload);
      if (!check.ok) throw new Error(check.reason);
      state.book.calls.get(check.value.callId)!.answer = check.value;
      return `answer recorded for ${check.value.callId}`;
    },
    {
      validator: (payload: unknown) => {
        const check = checkAnswer(state, payload);
        if (!check.ok) throw new Error(check.reason);
      },
    },
  );
}

/**
 * `ask_user`: the call waits (durably: across worker restarts, for as long as it takes, or up to the
 * approval timeout) for the user's answer, which becomes its function response. The wait is inside
 * a tool call, so the prompt does not continue as new while a question is open. A sub-agent cannot
 * ask: nobody watches its questions.
 */
export async function askUser(
  state: PromptState,
  record: CallRecord,
  inSubagent: boolean,
): Promise<WorkflowToolResult> {
  if (inSubagent) return { ok: false, text: 'ask_user is not available to sub-agents: decide, or report back.' };
  setCallStatus(record, 'awaiting_answer');
  publishStatus(state);
  emit(state, { type: 'question_asked', callId: record.callId, questions: record.args.questions });
  const timeout = state.input.approvalTimeoutMs;
  const answered = await waitForPerson(() => record.answer !== undefined, timeout);
  setCallStatus(record, 'executing');
  publishStatus(state);
  if (!answered || !record.answer)
    return { ok: false, text: `No answer arrived within ${timeout} ms, so the questions went unanswered.` };
  return { ok: true, text: answerText(record.answer) };
}

function isWaiting(call: CallRecord): boolean {
  return call.status === 'awaiting_answer' && !call.answer;
}
