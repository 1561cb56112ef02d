import type { AssembledTurn } from './assemble-turn';

/** Why a finished model stream cannot be used as a turn (Gemini CLI's `InvalidStreamError` types). */
export type InvalidStreamType =
  | 'NO_FINISH_REASON'
  | 'MALFORMED_FUNCTION_CALL'
  | 'UNEXPECTED_TOOL_CALL'
  | 'MAX_TOKENS_EXCEEDED'
  | 'SAFETY_BLOCKED'
  | 'RECITATION_BLOCKED'
  | 'OTHER_BLOCKED'
  | 'THINKING_ONLY_RESPONSE'
  | 'NO_RESPONSE_TEXT';

export interface InvalidStream {
  type: InvalidStreamType;
  /** Plain words for events and the prompt's final error. */
  message: string;
}

/**
 * Gemini CLI's mid-stream retry: 4 attempts in all (1 + 3 retries), waiting 1 s, 2 s, 4 s. These
 * retries live inside the model activity because they answer a bad stream, not a failed request.
 */
export const MID_STREAM_RETRY = { maxAttempts: 4, initialDelayMs: 1000 } as const;

const MESSAGES: Record<InvalidStreamType, string> = {
  NO_FINISH_REASON: 'the model stream ended without a finish reason',
  MALFORMED_FUNCTION_CALL: 'the model produced a malformed function call',
  UNEXPECTED_TOOL_CALL: 'the model called a tool it was not offered',
  MAX_TOKENS_EXCEEDED: 'the model reached its output token limit before writing any answer',
  SAFETY_BLOCKED: 'the answer was blocked by the safety filters',
  RECITATION_BLOCKED: 'the answer was blocked because it recited protected material',
  OTHER_BLOCKED: 'the answer was blocked for an unspecified reason',
  THINKING_ONLY_RESPONSE: 'the model only thought and gave no answer',
  NO_RESPONSE_TEXT: 'the model returned an empty answer',
};

/**
 * Text appended to the system instruction when retrying after an invalid stream. Like Gemini CLI,
 * only the two "said nothing" cases get one; the other types are retried unchanged.
 */
export const RETRY_NUDGES: Partial<Record<InvalidStreamType, string>> = {
  THINKING_ONLY_RESPONSE:
    'Note: your previous attempt at this reply contained reasoning only and no answer. This time, finish with a ' +
    'visible reply to the user or a tool call; do not stop after thinking.',
  NO_RESPONSE_TEXT:
    'Note: your previous attempt at this reply came back empty. This time, reply to the user or call a tool.',
};

/** The parts of an assembled turn that decide validity. */
export type TurnShape = Pick<AssembledTurn, 'text' | 'functionCalls' | 'finishReason' | 'thoughts'>;

/**
 * Gemini CLI's end-of-stream checks (`processStreamResponse`), in its order. A turn with any function
 * call is valid. `requestWasFunctionResponse` relaxes the two checks that a reply to tool results may
 * legitimately fail (a missing finish reason, an empty answer).
 */
export function validateTurn(
  turn: TurnShape,
  context: { requestWasFunctionResponse: boolean },
): InvalidStream | undefined {
  const type = invalidType(turn, context.requestWasFunctionResponse);
  return type ? { type, message: MESSAGES[type] } : undefined;
}

function invalidType(turn: TurnShape, requestWasFunctionResponse: boolean): InvalidStreamType | undefined {
  if (turn.functionCalls.length > 0) return undefined;
  const { finishReason } = turn;
  if (!finishReason && !requestWasFunctionResponse) return 'NO_FINISH_REASON';
  if (finishReason === 'MALFORMED_FUNCTION_CALL') return 'MALFORMED_FUNCTION_CALL';
  if (finishReason === 'UNEXPECTED_TOOL_CALL') return 'UNEXPECTED_TOOL_CALL';
  if (cleanResponseText(turn.text) !== '') return undefined;
  if (finishReason === 'MAX_TOKENS') return 'MAX_TOKENS_EXCEEDED';
  if (finishReason === 'SAFETY') return 'SAFETY_BLOCKED';
  if (finishReason === 'RECITATION') return 'RECITATION_BLOCKED';
  if (finishReason === 'OTHER') return 'OTHER_BLOCKED';
  if (turn.thoughts.length > 0) return 'THINKING_ONLY_RESPONSE';
  return requestWasFunctionResponse ? undefined : 'NO_RESPONSE_TEXT';
}

/** The answer as the checks see it: zero-width characters and HTML comments removed, trimmed. */
export function cleanResponseText(text: string): string {
  return text
    .replace(/[\u200B-\u200D\u200E\u200F\uFEFF]/g, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .trim();
}

/** The non-retryable failure's message once every attempt was invalid. */
export function invalidStreamFailureMessage(invalid: InvalidStream, attempts: number): string {
  return `The model's answer was still invalid after ${attempts} attempts: ${invalid.message} (${invalid.type}).`;
}
