import type { ContentBlock } from '@agentclientprotocol/sdk';
import { mediaProblem } from '../core/media';
import { promptContent, UnsupportedContentError } from './prompt-content';

const text = (t: string): ContentBlock => ({ type: 'text', text: t });
const image = (data: string, mimeType = 'image/png'): ContentBlock => ({ type: 'image', data, mimeType });

test('images are taken beside the text, their base64 as sent', () => {
  expect(promptContent([text('look: '), image('iVBORw==', 'image/PNG'), text('now')])).toEqual({
    text: 'look: now',
    images: [{ mimeType: 'image/png', data: 'iVBORw==' }],
  });
  expect(promptContent([text('hi')])).toEqual({ text: 'hi', images: [] });
});

test.each([
  ['a type Gemini does not take', [text('x'), image('AAAA', 'image/gif')], 'type image/gif is not supported'],
  ['a missing type', [text('x'), { type: 'image', data: 'AAAA' } as never], 'type undefined is not supported'],
  ['data that is not base64', [text('x'), image('AA$A')], 'data is not base64'],
  ['base64 cut short', [text('x'), image('AAA')], 'data is not base64'],
  ['empty data', [text('x'), image('')], 'data is not base64'],
  ['an image over 20 MB', [text('x'), image('A'.repeat(27_962_028))], 'over the 20 MB limit'],
  ['an image without text', [image('AAAA')], 'an image needs text beside it'],
  ['audio', [text('x'), { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' }], 'audio content is not supported'],
])('%s is refused, naming the problem', (_name, blocks, problem) => {
  expect(() => promptContent(blocks as ContentBlock[])).toThrow(UnsupportedContentError);
  expect(() => promptContent(blocks as ContentBlock[])).toThrow(problem);
});

test('an image of exactly 20 MB is taken', () => {
  // 20 MiB decoded is 27,962,028 base64 characters with one `=` of padding (20,971,520 = 3 × 6,990,506 + 2).
  const data = `${'A'.repeat(27_962_027)}=`;
  expect(promptContent([text('x'), image(data)]).images).toHaveLength(1);
});

test('a session message’s media must be stored images of a type Gemini takes (old messages have none)', () => {
  const ref = `sha256:${'a'.repeat(64)}`;
  expect(mediaProblem(undefined)).toBeUndefined();
  expect(mediaProblem([{ ref, mimeType: 'image/jpeg' }])).toBeUndefined();
  expect(mediaProblem('x')).toContain('must be a list');
  expect(mediaProblem([{ ref: 'AAAA', mimeType: 'image/png' }])).toContain('store reference');
  expect(mediaProblem([{ ref, mimeType: 'text/plain' }])).toContain('text/plain is not supported');
});
