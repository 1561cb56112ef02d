import { MessageCache } from './message-cache';

const json = (text: string) => JSON.stringify({ role: 'user', parts: [{ text }] });

describe('MessageCache', () => {
  it('parses a message once and hands out the same deeply frozen object', () => {
    const cache = new MessageCache();
    const message = cache.parse('r1', json('hello'));
    expect(message).toEqual({ role: 'user', parts: [{ text: 'hello' }] });
    expect(cache.get('r1')).toBe(message);
    expect(Object.isFrozen(message.parts![0])).toBe(true);
    expect(() => {
      (message.parts as unknown[]).push({ text: 'more' });
    }).toThrow(TypeError);
  });

  it('drops the least recently used messages once their JSON exceeds the budget', () => {
    const cache = new MessageCache(3 * json('a').length);
    for (const ref of ['a', 'b', 'c']) cache.parse(ref, json(ref));
    cache.get('a');
    cache.parse('d', json('d'));
    expect(cache.get('b')).toBeUndefined();
    expect(['a', 'c', 'd'].map((ref) => cache.get(ref)?.parts?.[0].text)).toEqual(['a', 'c', 'd']);
  });

  it('does not keep a message larger than the whole budget', () => {
    const cache = new MessageCache(10);
    expect(cache.parse('big', json('x'.repeat(100))).parts?.[0].text).toHaveLength(100);
    expect(cache.get('big')).toBeUndefined();
  });
});
