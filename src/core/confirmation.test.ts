import { approvalModeSchema, describeIssues, toolConfirmationSchema } from './confirmation';

describe('toolConfirmationSchema', () => {
  it.each(['proceed_once', 'proceed_always', 'modify', 'cancel'])('accepts outcome %s', (outcome) => {
    expect(toolConfirmationSchema.safeParse({ callId: 'call_1_0', outcome }).success).toBe(true);
  });

  it('accepts args and a reason', () => {
    const payload = { callId: 'c', outcome: 'modify', args: { file_path: 'a' }, reason: 'smaller change' };
    expect(toolConfirmationSchema.parse(payload)).toEqual(payload);
  });

  it.each([
    ['an unknown outcome', { callId: 'c', outcome: 'approve' }],
    ['a missing callId', { outcome: 'proceed_once' }],
    ['an empty callId', { callId: '', outcome: 'proceed_once' }],
    ['a non-object', 'proceed_once'],
    ['args that are not an object', { callId: 'c', outcome: 'modify', args: 'x' }],
  ])('rejects %s', (_label, payload) => {
    expect(toolConfirmationSchema.safeParse(payload).success).toBe(false);
  });
});

describe('approvalModeSchema', () => {
  it.each(['default', 'auto_edit', 'yolo', 'plan'])('accepts %s bare and as { mode }', (mode) => {
    expect(approvalModeSchema.safeParse(mode).success).toBe(true);
    expect(approvalModeSchema.safeParse({ mode }).success).toBe(true);
  });

  it.each([['auto'], [{ mode: 'YOLO' }], [42], [{}]])('rejects %p', (value) => {
    expect(approvalModeSchema.safeParse(value).success).toBe(false);
  });
});

describe('describeIssues', () => {
  it('names each bad field by its path', () => {
    const result = toolConfirmationSchema.safeParse({ callId: '', outcome: 'nope' });
    if (result.success) throw new Error('expected a parse failure');
    const text = describeIssues(result.error);
    expect(text).toMatch(/^callId: callId is required; outcome: /);
    expect(text.split('; ')).toHaveLength(2);
  });

  it('calls a whole-payload problem "payload"', () => {
    const result = toolConfirmationSchema.safeParse(42);
    if (result.success) throw new Error('expected a parse failure');
    expect(describeIssues(result.error)).toMatch(/^payload: /);
  });
});
