import type { Content } from '@google/genai';
import {
  AUTO_MODEL,
  autoRoutingModels,
  classifierHistory,
  DEFAULT_FAST_MODEL,
  DEFAULT_STRONG_MODEL,
  fallbackModelFor,
  isQuotaFailure,
} from './routing';

const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });
const model = (text: string): Content => ({ role: 'model', parts: [{ text }] });
const call: Content = { role: 'model', parts: [{ functionCall: { id: 'c', name: 'ls', args: {} } }] };
const result: Content = { role: 'user', parts: [{ functionResponse: { id: 'c', name: 'ls', response: {} } }] };

describe('autoRoutingModels', () => {
  it('routes auto between the default fast and strong models, and skips explicit models', () => {
    expect(autoRoutingModels(AUTO_MODEL)).toEqual({ fast: DEFAULT_FAST_MODEL, strong: DEFAULT_STRONG_MODEL });
    expect(autoRoutingModels('auto-gemini-3')).toEqual({
      fast: 'gemini-3-flash-preview',
      strong: 'gemini-3-pro-preview',
    });
    expect(autoRoutingModels('gemini-2.5-pro')).toBeUndefined();
  });
});

describe('fallbackModelFor', () => {
  it('falls back from a strong model to its fast one, and no further', () => {
    expect(fallbackModelFor(DEFAULT_STRONG_MODEL)).toBe(DEFAULT_FAST_MODEL);
    expect(fallbackModelFor('gemini-3-pro-preview')).toBe('gemini-3-flash-preview');
    expect(fallbackModelFor(DEFAULT_FAST_MODEL)).toBeUndefined();
    expect(fallbackModelFor('my-custom-model')).toBeUndefined();
  });

  it('follows a configured pair', () => {
    expect(fallbackModelFor('big', { fast: 'small', strong: 'big' })).toBe('small');
    expect(fallbackModelFor('small', { fast: 'small', strong: 'big' })).toBeUndefined();
  });
});

describe('isQuotaFailure', () => {
  it('is true for rate-limit failures only', () => {
    expect(isQuotaFailure('ModelCall.RateLimit')).toBe(true);
    expect(isQuotaFailure('ModelCall.ServerError')).toBe(false);
    expect(isQuotaFailure(undefined)).toBe(false);
  });
});

describe('classifierHistory', () => {
  it('keeps the last 4 messages of the last 20, tool turns removed', () => {
    const history = [
      ...Array.from({ length: 10 }, (_, i) => user(`old ${i}`)),
      user('a'),
      model('b'),
      call,
      result,
      user('c'),
      model('d'),
      call,
      result,
    ];
    expect(classifierHistory(history)).toEqual([user('a'), model('b'), user('c'), model('d')]);
  });

  it('looks no further back than 20 messages', () => {
    const history = [user('too old'), ...Array.from({ length: 20 }, () => call)];
    expect(classifierHistory(history)).toEqual([]);
  });
});
