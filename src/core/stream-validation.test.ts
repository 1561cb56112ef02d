import { cleanResponseText, invalidStreamFailureMessage, validateTurn, type TurnShape } from './stream-validation';

const turn = (over: Partial<TurnShape>): TurnShape => ({
  text: '',
  functionCalls: [],
  finishReason: 'STOP',
  thoughts: [],
  ...over,
});
const call = { id: 'c1', name: 'read_file', args: {} };
const thought = { subject: 'Plan', description: 'read it' };
const typeOf = (t: TurnShape, requestWasFunctionResponse = false) =>
  validateTurn(t, { requestWasFunctionResponse })?.type;

describe('validateTurn', () => {
  it('accepts text with a finish reason', () => {
    expect(validateTurn(turn({ text: 'done' }), { requestWasFunctionResponse: false })).toBeUndefined();
  });

  it('accepts any turn with a function call, whatever else is wrong', () => {
    for (const finishReason of [undefined, 'MALFORMED_FUNCTION_CALL', 'SAFETY', 'MAX_TOKENS']) {
      expect(typeOf(turn({ functionCalls: [call], finishReason }))).toBeUndefined();
    }
  });

  it.each([
    ['no finish reason, even with text', turn({ text: 'partial', finishReason: undefined }), 'NO_FINISH_REASON'],
    [
      'a malformed call, even with text',
      turn({ text: 'x', finishReason: 'MALFORMED_FUNCTION_CALL' }),
      'MALFORMED_FUNCTION_CALL',
    ],
    ['an unexpected tool call', turn({ finishReason: 'UNEXPECTED_TOOL_CALL' }), 'UNEXPECTED_TOOL_CALL'],
    ['empty text at the token limit', turn({ finishReason: 'MAX_TOKENS' }), 'MAX_TOKENS_EXCEEDED'],
    ['empty text blocked for safety', turn({ finishReason: 'SAFETY' }), 'SAFETY_BLOCKED'],
    ['empty text blocked for recitation', turn({ finishReason: 'RECITATION' }), 'RECITATION_BLOCKED'],
    ['empty text blocked otherwise', turn({ finishReason: 'OTHER' }), 'OTHER_BLOCKED'],
    ['thoughts and no text', turn({ thoughts: [thought] }), 'THINKING_ONLY_RESPONSE'],
    ['empty text', turn({}), 'NO_RESPONSE_TEXT'],
  ])('rejects %s', (_name, t, type) => {
    expect(typeOf(t)).toBe(type);
  });

  it('applies the checks in order: blocked beats thinking-only, no finish reason beats everything', () => {
    expect(typeOf(turn({ finishReason: 'SAFETY', thoughts: [thought] }))).toBe('SAFETY_BLOCKED');
    expect(typeOf(turn({ finishReason: undefined, thoughts: [thought] }))).toBe('NO_FINISH_REASON');
  });

  it('accepts text at the token limit or with a blocked finish: only empty text is invalid there', () => {
    expect(typeOf(turn({ text: 'half an answer', finishReason: 'MAX_TOKENS' }))).toBeUndefined();
    expect(typeOf(turn({ text: 'some', finishReason: 'SAFETY' }))).toBeUndefined();
  });

  it('skips the finish-reason and empty-text checks after function responses, but not the others', () => {
    expect(typeOf(turn({ finishReason: undefined }), true)).toBeUndefined();
    expect(typeOf(turn({}), true)).toBeUndefined();
    expect(typeOf(turn({ thoughts: [thought] }), true)).toBe('THINKING_ONLY_RESPONSE');
    expect(typeOf(turn({ finishReason: 'MALFORMED_FUNCTION_CALL' }), true)).toBe('MALFORMED_FUNCTION_CALL');
  });

  it('counts zero-width characters and HTML comments as no text', () => {
    expect(typeOf(turn({ text: '\u200B\uFEFF <!-- hidden\nnote --> \u200E' }))).toBe('NO_RESPONSE_TEXT');
    expect(cleanResponseText(' a<!-- x -->b\u200D ')).toBe('ab');
  });

  it('gives a plain-words message naming the type', () => {
    const invalid = validateTurn(turn({}), { requestWasFunctionResponse: false })!;
    expect(invalid.message).toBe('the model returned an empty answer');
    expect(invalidStreamFailureMessage(invalid, 4)).toBe(
      "The model's answer was still invalid after 4 attempts: the model returned an empty answer (NO_RESPONSE_TEXT).",
    );
  });
});
