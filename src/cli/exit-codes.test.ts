import { EXIT, exitCodeFor } from './exit-codes';

describe('exitCodeFor', () => {
  it.each([
    [{ status: 'completed' }, EXIT.ok],
    [{ status: 'awaiting_approval' }, EXIT.ok],
    [{ status: 'cancelled', error: { type: 'Cancelled', message: '' } }, EXIT.cancelled],
    [{ status: 'failed', error: { type: 'TurnLimit', message: '' } }, EXIT.turnLimit],
    [{ status: 'failed', error: { type: 'ModelCall.Auth', message: '' } }, EXIT.auth],
    [{ status: 'failed', error: { type: 'LoopDetected', message: '' } }, EXIT.error],
    [{ status: 'failed', error: { type: 'SomeHookType', message: '' } }, EXIT.error],
    [{ status: 'terminated', error: { type: 'Terminated', message: '' } }, EXIT.error],
  ] as const)('%j → %d', (report, code) => {
    expect(exitCodeFor(report)).toBe(code);
  });
});
