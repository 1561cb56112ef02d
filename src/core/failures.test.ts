import { EXIT_CODES, FAILURES, failureKind, MODEL_ERROR_TYPES, NON_RETRYABLE_MODEL_ERRORS } from './failures';

describe('the failure table', () => {
  it('names each type once', () => {
    const types = Object.values(FAILURES).map((kind) => kind.type);
    expect(new Set(types).size).toBe(types.length);
  });

  it.each([
    ['TurnLimit', EXIT_CODES.turnLimit],
    ['ModelCall.Auth', EXIT_CODES.auth],
    ['LoopDetected', EXIT_CODES.error],
    ['ModelCall.RateLimit', EXIT_CODES.error],
  ])('%s exits with %d', (type, code) => {
    expect(failureKind(type)?.exitCode).toBe(code);
  });

  it('knows no type it does not raise', () => {
    expect(failureKind('Custom')).toBeUndefined();
    expect(failureKind(undefined)).toBeUndefined();
  });

  it('lists only non-retryable model types for the retry policy', () => {
    for (const type of NON_RETRYABLE_MODEL_ERRORS) expect(failureKind(type)?.retryable).toBe(false);
    expect(Object.values(MODEL_ERROR_TYPES).every((type) => type.startsWith('ModelCall.'))).toBe(true);
  });
});
