import { ApiError, GoogleGenAI } from '@google/genai';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { MODEL_ERROR_TYPES, NON_RETRYABLE_MODEL_ERRORS } from '../core/failures';
import { classifyModelError, classifyStatus, serverRetryDelay } from './errors';

/** Every failure the classifier returns must be an ApplicationFailure: the workflow's retry policy reads its type. */
function classified(err: unknown): ApplicationFailure {
  const result = classifyModelError(err);
  expect(result).toBeInstanceOf(ApplicationFailure);
  return result as ApplicationFailure;
}

const withCause = (message: string, cause: unknown) => Object.assign(new Error(message), { cause });

describe('classifyModelError: ApiError statuses', () => {
  const table: [number, string, boolean][] = [
    [400, MODEL_ERROR_TYPES.badRequest, true],
    [401, MODEL_ERROR_TYPES.auth, true],
    [403, MODEL_ERROR_TYPES.auth, true],
    [404, MODEL_ERROR_TYPES.notFound, true],
    [408, MODEL_ERROR_TYPES.server, false],
    [409, MODEL_ERROR_TYPES.badRequest, true],
    [429, MODEL_ERROR_TYPES.rateLimit, false],
    [499, MODEL_ERROR_TYPES.server, false],
    [500, MODEL_ERROR_TYPES.server, false],
    [502, MODEL_ERROR_TYPES.server, false],
    [503, MODEL_ERROR_TYPES.server, false],
    [504, MODEL_ERROR_TYPES.server, false],
  ];

  it.each(table)('%i → %s (nonRetryable %s)', (status, type, nonRetryable) => {
    const failure = classified(new ApiError({ message: `upstream said ${status}`, status }));
    expect(failure.type).toBe(type);
    expect(failure.nonRetryable).toBe(nonRetryable);
    expect(failure.message).toContain(String(status));
    expect(failure.message).toContain(`upstream said ${status}`);
  });

  it('tells the user what to fix for auth and model-name errors', () => {
    expect(classifyStatus(401, 'denied').message).toMatch(/GEMINI_API_KEY/);
    expect(classifyStatus(403, 'denied').message).toMatch(/GEMINI_API_KEY/);
    expect(classifyStatus(404, 'no such model').message).toMatch(/model name/);
  });
});

describe('a 404 for a model', () => {
  const notFound = (model: string) =>
    classifyModelError(new ApiError({ status: 404, message: 'models/x is not found' }), model) as ApplicationFailure;

  it('fails at once, naming the model and its replacement', () => {
    const failure = notFound('gemini-3-pro-preview');
    expect(failure.type).toBe(MODEL_ERROR_TYPES.notFound);
    expect(failure.nonRetryable).toBe(true);
    expect(failure.message).toContain('model gemini-3-pro-preview was not found');
    expect(failure.message).toContain('use gemini-3.1-pro-preview instead: -m gemini-3.1-pro-preview');
    expect(failure.message).toContain('modelIdResolutions');
  });

  it('suggests the current model of the same role for a model the catalogue does not know as retired', () => {
    expect(notFound('gemini-2.5-flash').message).toContain('use gemini-3.8-flash instead');
    expect(notFound('gemini-2.5-flash-lite').message).toContain('use gemini-3.5-flash-lite instead');
    expect(notFound('gemini-3.1-pro-preview').message).toContain('To choose another model: -m MODEL');
  });
});

describe('classifyModelError: other errors', () => {
  it.each([
    ['fetch failed', new TypeError('fetch failed')],
    [
      'ECONNRESET three causes deep',
      withCause('request failed', withCause('stream broke', withCause('read', { code: 'ECONNRESET' }))),
    ],
    [
      'terminated by an undici socket error',
      withCause('terminated', Object.assign(new Error('other'), { code: 'UND_ERR_SOCKET' })),
    ],
    ['a bare socket error code', Object.assign(new Error('boom'), { code: 'UND_ERR_SOCKET' })],
  ])('%s → retryable network error', (_label, err) => {
    const failure = classified(err);
    expect(failure.type).toBe(MODEL_ERROR_TYPES.network);
    expect(failure.nonRetryable).toBe(false);
  });

  it('an unrecognised error is a retryable unknown failure carrying its message', () => {
    const failure = classified(new Error('something odd'));
    expect(failure.type).toBe(MODEL_ERROR_TYPES.unknown);
    expect(failure.nonRetryable).toBe(false);
    expect(failure.message).toContain('something odd');
  });

  it('a request the real SDK refuses before sending (an empty model name) fails at once', async () => {
    // Port 9 (discard) is never reached: the SDK throws while building the request.
    const models = new GoogleGenAI({ apiKey: 'unused', httpOptions: { baseUrl: 'http://127.0.0.1:9' } }).models;
    const err = await models.generateContentStream({ model: '', contents: 'hi' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    const failure = classified(err);
    expect(failure.type).toBe(MODEL_ERROR_TYPES.badRequest);
    expect(failure.nonRetryable).toBe(true);
    expect(failure.message).toMatch(/model/);
  });

  it('an error code outside the network set is not a network error', () => {
    expect(classified(Object.assign(new Error('no'), { code: 'EACCES' })).type).toBe(MODEL_ERROR_TYPES.unknown);
  });

  it('passes Temporal failures through unchanged', () => {
    const app = ApplicationFailure.create({ type: 'Custom', message: 'already typed', nonRetryable: true });
    const cancelled = new CancelledFailure('activity cancelled');
    expect(classifyModelError(app)).toBe(app);
    expect(classifyModelError(cancelled)).toBe(cancelled);
  });
});

describe('NON_RETRYABLE_MODEL_ERRORS', () => {
  it('is exactly the set of types the classifier marks nonRetryable', () => {
    const failures = Array.from({ length: 200 }, (_, i) => classifyStatus(400 + i, 'x'));
    const fatal = new Set(failures.filter((f) => f.nonRetryable).map((f) => f.type));
    const retried = new Set(failures.filter((f) => !f.nonRetryable).map((f) => f.type));
    expect([...fatal].sort()).toEqual([...NON_RETRYABLE_MODEL_ERRORS].sort());
    for (const type of NON_RETRYABLE_MODEL_ERRORS) expect(retried.has(type as string)).toBe(false);
  });
});

describe('serverRetryDelay', () => {
  it.each([
    [
      '{"error":{"code":429,"details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"27s"}]}}',
      27_000,
    ],
    ['Quota exceeded. Please retry in 1.5s.', 1500],
    ['{"retryDelay":"400s"}', undefined],
    ['no hint', undefined],
  ])('%s → %s', (message, expected) => {
    expect(serverRetryDelay(message)).toBe(expected);
  });

  it('sets nextRetryDelay on a 429 that asks for a wait', () => {
    const failure = classifyStatus(429, '{"retryDelay":"2s"}') as ApplicationFailure;
    expect(failure.nextRetryDelay).toBe(2000);
  });
});

describe('quota errors', () => {
  it('puts the reset time, uncapped, in the details', () => {
    const failure = classifyStatus(429, '{"retryDelay":"2s"}') as ApplicationFailure;
    expect(failure.details).toEqual([{ quotaResetMs: 2000 }]);
    expect(failure.nonRetryable).toBe(false);
  });

  it.each([
    ['a reset beyond 300 s', '{"retryDelay":"3600s"}', { quotaResetMs: 3_600_000, usedUp: true }],
    ['a daily quota', 'Quota exceeded for metric GenerateRequestsPerDayPerProjectPerModel', { usedUp: true }],
    ['a zero limit', 'Quota exceeded, limit: 0, model: gemini-2.5-pro', { usedUp: true }],
  ])('%s is marked used up, and still retried (invariant 3)', (_, message, details) => {
    const failure = classifyStatus(429, message) as ApplicationFailure;
    expect(failure).toMatchObject({ type: 'ModelCall.RateLimit', nonRetryable: false });
    expect(failure.message).toContain('the quota is used up');
    expect(failure.details).toEqual([details]);
  });

  it('an ordinary 429 says nothing more', () => {
    expect((classifyStatus(429, 'slow down') as ApplicationFailure).details ?? []).toEqual([]);
  });
});
