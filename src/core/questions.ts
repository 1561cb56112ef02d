import { z } from 'zod';
import { describeIssues } from './confirmation';

/** Gemini CLI's `ask_user` limits: 1 to 4 questions, a header of at most 16 characters, 2 to 4 options a choice. */
export const MAX_QUESTIONS = 4;
export const MAX_HEADER_CHARS = 16;
/** Longest answer to one question: answers travel in a signal and in workflow state (invariant 4). */
export const MAX_ANSWER_CHARS = 8000;

const optionSchema = z.object({
  label: z.string().trim().min(1, 'label must not be empty').describe('What the user picks (1 to 5 words).'),
  description: z.string().describe('One line on what the option means.'),
});

export const questionSchema = z
  .object({
    question: z.string().trim().min(1, 'question must not be empty').describe('The whole question, ending with "?".'),
    header: z.string().max(MAX_HEADER_CHARS).describe(`A short label for it, ${MAX_HEADER_CHARS} characters at most.`),
    type: z
      .enum(['choice', 'text', 'yesno'])
      .optional()
      .describe("'choice' (the default) with options, 'text' for a free answer, 'yesno' for a yes or no."),
    options: z
      .array(optionSchema)
      .optional()
      .describe("For 'choice': 2 to 4 options; the user may also write another."),
    multiSelect: z.boolean().optional().describe("For 'choice': the user may pick several options."),
    placeholder: z.string().optional().describe('A hint for the answer field.'),
  })
  .superRefine((q, ctx) => {
    if (q.type === 'choice' && (!q.options || q.options.length < 2 || q.options.length > 4))
      ctx.addIssue({ code: 'custom', path: ['options'], message: "type 'choice' needs 2 to 4 options" });
  });

export type Question = z.infer<typeof questionSchema>;

export const askUserParameters = z.object({
  questions: z
    .array(questionSchema)
    .min(1, 'at least one question is required')
    .max(MAX_QUESTIONS, `at most ${MAX_QUESTIONS} questions`)
    .describe(`1 to ${MAX_QUESTIONS} questions to ask the user.`),
});

const answerValue = z.union([
  z.string().max(MAX_ANSWER_CHARS),
  z.array(z.string().max(MAX_ANSWER_CHARS)).min(1, 'a list of picks must not be empty'),
]);

/**
 * The `answerQuestion` payload, typed by hand with the stock `temporal` CLI: `answers` by question
 * index (`{"0": "Postgres"}`) or as a list in question order (`["Postgres"]`); several picks of a
 * multi-select question as a list. `dismissed: true` declines to answer.
 */
export const questionAnswerSchema = z
  .object({
    callId: z.string().min(1, 'callId is required'),
    answers: z
      .union([
        z.record(z.string().regex(/^\d+$/, 'keys are question numbers from 0'), answerValue),
        z.array(answerValue),
      ])
      .optional(),
    dismissed: z.boolean().optional(),
  })
  .refine((a) => a.dismissed === true || (a.answers !== undefined && Object.keys(a.answers).length > 0), {
    message: 'give answers (at least one) or dismissed: true',
  });

/** The answer as it is sent (see `questionAnswerSchema`). */
export type QuestionAnswerPayload = z.input<typeof questionAnswerSchema>;

/** An answer as the workflow keeps it: one text per answered question, by index. */
export interface QuestionAnswer {
  callId: string;
  answers?: Record<string, string>;
  dismissed?: boolean;
}

/** Checks an answer's shape and that it fits the questions asked: the answer normalised, or why it cannot apply. */
export function normaliseAnswer(
  payload: unknown,
  questions: readonly unknown[] | undefined,
): { ok: true; value: QuestionAnswer } | { ok: false; reason: string } {
  const parsed = questionAnswerSchema.safeParse(payload);
  if (!parsed.success) return { ok: false, reason: `malformed answerQuestion: ${describeIssues(parsed.error)}` };
  const { callId, answers, dismissed } = parsed.data;
  if (dismissed && answers) return { ok: false, reason: 'give answers or dismissed: true, not both' };
  if (dismissed) return { ok: true, value: { callId, dismissed: true } };
  const entries = Array.isArray(answers) ? answers.map((a, i) => [String(i), a] as const) : Object.entries(answers!);
  const count = questions?.length ?? 0;
  const normalised: Record<string, string> = {};
  for (const [key, value] of entries) {
    if (Number(key) >= count)
      return { ok: false, reason: `there is no question ${key}: call ${callId} asked ${count} (numbered from 0)` };
    normalised[String(Number(key))] = Array.isArray(value) ? value.join(', ') : value;
  }
  return { ok: true, value: { callId, answers: normalised } };
}

/** What the model reads back, as Gemini CLI words the result: the answers as JSON, or that the user declined. */
export function answerText(answer: QuestionAnswer): string {
  if (answer.dismissed) return 'The user dismissed the questions without answering.';
  return JSON.stringify({ answers: answer.answers ?? {} });
}
