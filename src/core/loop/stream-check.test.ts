import type { StreamChunk } from '../assemble-turn';
import { createLoopState } from './detection';
import { streamContentCheck } from './stream-check';

const SENTENCE = 'I will now check the configuration file once more. ';
const text = (t: string, thought = false): StreamChunk => ({
  candidates: [{ content: { parts: [{ text: t, thought }] } }],
});
const call: StreamChunk = { candidates: [{ content: { parts: [{ functionCall: { name: 'glob', args: {} } }] } }] };

/** The 1-based number of the chunk that detected, or undefined. */
function firstDetection(chunks: StreamChunk[]): number | undefined {
  const check = streamContentCheck(createLoopState().content);
  const at = chunks.findIndex((chunk) => check(chunk) !== undefined);
  return at < 0 ? undefined : at + 1;
}

test('a sentence streamed again and again is a loop within a dozen chunks', () => {
  const at = firstDetection(Array.from({ length: 40 }, () => text(SENTENCE)));
  expect(at).toBeGreaterThanOrEqual(10);
  expect(at).toBeLessThanOrEqual(12);
});

test('thoughts are not tracked', () => {
  expect(firstDetection(Array.from({ length: 40 }, () => text(SENTENCE, true)))).toBeUndefined();
});

test('a function call starts the tracking over', () => {
  const chunks = Array.from({ length: 40 }, (_, i) => (i % 8 === 7 ? call : text(SENTENCE)));
  expect(firstDetection(chunks)).toBeUndefined();
});

test('the tracking the workflow had before the request counts', () => {
  const check = streamContentCheck({ text: SENTENCE.repeat(9), next: SENTENCE.length * 9 - 49, inCodeBlock: false });
  expect(check(text(SENTENCE))).toMatchObject({ kind: 'content_loop' });
});
