import type { Content } from '@google/genai';
import { classifierHistory, isQuotaFailure } from './routing';

const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });
const model = (text: string): Content => ({ role: 'model', parts: [{ text }] });
const call: Content = { role: 'model', parts: [{ functionCall: { id: 'c', name: 'ls', args: {} } }] };
const result: Content = { role: 'user', parts: [{ functionResponse: { id: 'c', name: 'ls', response: {} } }] };

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
