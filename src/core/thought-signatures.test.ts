import type { Content } from '@google/genai';
import { SKIP_THOUGHT_SIGNATURE, withSignaturePlaceholders } from './thought-signatures';

const call = (name: string, thoughtSignature?: string) => ({
  functionCall: { name, args: {} },
  ...(thoughtSignature ? { thoughtSignature } : {}),
});
const response = (name: string) => ({ functionResponse: { name, response: {} } });

const conversation: Content[] = [
  { role: 'user', parts: [{ text: 'first prompt' }] },
  { role: 'model', parts: [call('old')] },
  { role: 'user', parts: [response('old')] },
  { role: 'model', parts: [{ text: 'done' }] },
  { role: 'user', parts: [{ text: 'second prompt' }] },
  { role: 'model', parts: [{ text: 'let me look' }, call('a'), call('b')] },
  { role: 'user', parts: [response('a'), response('b')] },
  { role: 'model', parts: [call('c', 'real-signature')] },
  { role: 'user', parts: [response('c')] },
];

describe('placeholder thought signatures', () => {
  it('signs the first unsigned call of each model turn of the active loop, and only there', () => {
    const sent = withSignaturePlaceholders(conversation, 'gemini-3.1-pro-preview');
    expect(sent[5].parts![1].thoughtSignature).toBe(SKIP_THOUGHT_SIGNATURE);
    expect(sent[5].parts![2].thoughtSignature).toBeUndefined();
    expect(sent[7].parts![0].thoughtSignature).toBe('real-signature');
    expect(sent[1].parts![0].thoughtSignature).toBeUndefined();
  });

  it('leaves the given contents unchanged (the transcript keeps what was said)', () => {
    const before = JSON.stringify(conversation);
    withSignaturePlaceholders(conversation, 'gemini-2.5-flash');
    expect(JSON.stringify(conversation)).toBe(before);
  });

  it('adds nothing for models that predate thought signatures', () => {
    expect(withSignaturePlaceholders(conversation, 'gemini-1.5-pro')).toBe(conversation);
  });
});
