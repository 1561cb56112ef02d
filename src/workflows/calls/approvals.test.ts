import type { ToolCallStatus } from '../../core/types';
import { checkConfirmation } from './approvals';
import type { ToolConfirmation } from '../api';
import { createPromptState, type PromptState } from '../state/prompt-state';
import type { CallRecord } from '../api';

function stateWith(calls: Partial<CallRecord>[]): PromptState {
  const state = createPromptState({ prompt: 'p', workspace: '/w', model: 'm', approvalMode: 'default', maxTurns: 10 });
  for (const call of calls) {
    const record: CallRecord = { callId: 'x', name: 'write_file', args: {}, status: 'awaiting_approval', ...call };
    state.book.calls.set(record.callId, record);
  }
  return state;
}

const awaiting = (callId: string, name = 'write_file'): Partial<CallRecord> => ({
  callId,
  name,
  args: { file_path: 'a.txt', content: 'x' },
  status: 'awaiting_approval',
});

function reasonOf(state: PromptState, payload: unknown): string {
  const check = checkConfirmation(state, payload);
  if (check.ok) throw new Error(`expected a refusal, got ${JSON.stringify(check.value)}`);
  return check.reason;
}

describe('checkConfirmation', () => {
  it('accepts a valid confirmation and returns the parsed payload', () => {
    const state = stateWith([awaiting('c1')]);
    expect(checkConfirmation(state, { callId: 'c1', outcome: 'proceed_once' })).toEqual({
      ok: true,
      value: { callId: 'c1', outcome: 'proceed_once' },
    });
  });

  it('accepts modify with valid args', () => {
    const payload = { callId: 'c1', outcome: 'modify', args: { file_path: 'b.txt', content: 'changed' } };
    expect(checkConfirmation(stateWith([awaiting('c1')]), payload)).toEqual({ ok: true, value: payload });
  });

  it.each([
    ['no callId', { outcome: 'proceed_once' }, /malformed toolConfirmation: callId: /],
    ['an unknown outcome', { callId: 'c1', outcome: 'yes' }, /malformed toolConfirmation: outcome: /],
    ['a non-object', 'proceed_once', /malformed toolConfirmation: payload: /],
  ])('refuses a malformed payload (%s)', (_label, payload, reason) => {
    expect(reasonOf(stateWith([awaiting('c1')]), payload)).toMatch(reason);
  });

  it('refuses an unknown callId and lists the calls awaiting approval', () => {
    const state = stateWith([awaiting('c1'), awaiting('c2'), { ...awaiting('done'), status: 'success' }]);
    const reason = reasonOf(state, { callId: 'nope', outcome: 'proceed_once' });
    expect(reason).toBe('unknown callId nope; awaiting approval: c1, c2');
  });

  it('says "none" when nothing awaits approval', () => {
    expect(reasonOf(stateWith([]), { callId: 'nope', outcome: 'cancel' })).toMatch(/awaiting approval: none$/);
  });

  it.each<ToolCallStatus>(['scheduled', 'executing', 'success', 'error', 'cancelled'])(
    'refuses a call that is %s',
    (status) => {
      const state = stateWith([{ ...awaiting('c1'), status }]);
      expect(reasonOf(state, { callId: 'c1', outcome: 'proceed_once' })).toBe(
        `call c1 is not awaiting approval (it is ${status})`,
      );
    },
  );

  it('refuses a second decision for the same call', () => {
    const decision: ToolConfirmation = { callId: 'c1', outcome: 'cancel' };
    const state = stateWith([{ ...awaiting('c1'), decision }]);
    expect(reasonOf(state, { callId: 'c1', outcome: 'proceed_once' })).toMatch(
      /call c1 was already decided \(cancel\)/,
    );
  });

  it('refuses anything once the prompt has finished', () => {
    const state = stateWith([awaiting('c1')]);
    state.finished = true;
    expect(reasonOf(state, { callId: 'c1', outcome: 'proceed_once' })).toMatch(/prompt has finished; call c1/);
  });

  it('refuses modify without args', () => {
    expect(reasonOf(stateWith([awaiting('c1')]), { callId: 'c1', outcome: 'modify' })).toBe(
      'outcome modify needs args for call c1',
    );
  });

  it('refuses modify with args the tool would reject', () => {
    const reason = reasonOf(stateWith([awaiting('c1')]), {
      callId: 'c1',
      outcome: 'modify',
      args: { file_path: 42, content: 'x' },
    });
    expect(reason).toMatch(/^modified arguments for write_file are invalid: /);
    expect(reason).toContain('file_path');
  });
});
