import type { Content } from '@google/genai';
import {
  COMPRESSION_STATUS,
  checkContextFit,
  failedAttemptAfter,
  findCompressSplitPoint,
  formatTruncatedOutput,
  shouldCompress,
  truncateOldFunctionResponses,
} from './compression';

const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });
const model = (text: string): Content => ({ role: 'model', parts: [{ text }] });
const call = (name: string): Content => ({ role: 'model', parts: [{ functionCall: { id: name, name, args: {} } }] });
const response = (name: string, output: string): Content => ({
  role: 'user',
  parts: [{ functionResponse: { id: name, name, response: { output } } }],
});

describe('findCompressSplitPoint', () => {
  it('splits at the first plain user message with at least 70% of the characters before it', () => {
    const contents = [
      user('a'.repeat(100)),
      model('b'.repeat(100)),
      user('c'.repeat(100)),
      model('d'.repeat(100)),
      user('e'),
      model('f'),
    ];
    expect(findCompressSplitPoint(contents)).toBe(4);
    expect(findCompressSplitPoint(contents, 0.4)).toBe(2);
  });

  it('never splits between a function call and its response', () => {
    const contents = [
      user('go'),
      call('c1'),
      response('c1', 'x'.repeat(400)),
      model('done'),
      user('next'),
      model('ok'),
    ];
    // 70% of the characters are reached at the function response, which is not a valid split point.
    const split = findCompressSplitPoint(contents);
    expect(split).toBe(4);
    expect(contents[split].parts?.some((p) => p.functionResponse)).toBe(false);
  });

  it('compresses everything when no split qualifies and the history ends with a plain model message', () => {
    expect(findCompressSplitPoint([user('short'), model('x'.repeat(500))])).toBe(2);
  });

  it('falls back to the last valid split point when the history ends with a function call', () => {
    expect(findCompressSplitPoint([user('a'), model('b'), user('c'), call('x'.repeat(500))])).toBe(2);
    expect(findCompressSplitPoint([user('a'), call('x'.repeat(500))])).toBe(0);
  });

  it('returns 0 for an empty history and rejects fractions outside (0, 1)', () => {
    expect(findCompressSplitPoint([])).toBe(0);
    expect(() => findCompressSplitPoint([user('a')], 1)).toThrow(RangeError);
  });
});

describe('shouldCompress', () => {
  const base = { model: 'gemini-2.5-pro', force: false, hasFailedBefore: false };

  it('triggers at half the token limit', () => {
    expect(shouldCompress({ ...base, lastPromptTokens: 524_287 })).toBe('none');
    expect(shouldCompress({ ...base, lastPromptTokens: 524_288 })).toBe('summarise');
    expect(shouldCompress({ ...base, model: 'gemma-4-27b-it', lastPromptTokens: 128_000 })).toBe('summarise');
    expect(shouldCompress({ ...base, lastPromptTokens: 300_000, threshold: 0.25 })).toBe('summarise');
  });

  it('truncates only after a failed attempt, unless forced', () => {
    expect(shouldCompress({ ...base, lastPromptTokens: 600_000, hasFailedBefore: true })).toBe('truncate');
    expect(shouldCompress({ ...base, lastPromptTokens: 10, hasFailedBefore: true, force: true })).toBe('summarise');
    expect(shouldCompress({ ...base, lastPromptTokens: 10, force: true })).toBe('summarise');
  });
});

describe('failedAttemptAfter', () => {
  it('is set by an unforced inflated attempt and never cleared', () => {
    expect(failedAttemptAfter(false, COMPRESSION_STATUS.inflated, false)).toBe(true);
    expect(failedAttemptAfter(false, COMPRESSION_STATUS.inflated, true)).toBe(false);
    expect(failedAttemptAfter(false, COMPRESSION_STATUS.emptySummary, false)).toBe(false);
    expect(failedAttemptAfter(true, COMPRESSION_STATUS.compressed, true)).toBe(true);
  });
});

describe('truncateOldFunctionResponses', () => {
  const kept: string[] = [];
  const keep = async (text: string) => {
    kept.push(text);
    return `sha256:${String(kept.length).padStart(64, '0')}`;
  };
  beforeEach(() => kept.splice(0));

  it(
    'keeps the newest responses within the budget whole and shortens older ones, saying how much was ' + 'cut',
    async () => {
      const big = (c: string) => c.repeat(80_000); // 20,000 tokens each
      const history = [response('old', big('o')), response('mid', big('m')), response('new', big('n')), model('done')];
      const { contents, truncated } = await truncateOldFunctionResponses(history, 50_000, { keep, maxChars: 1000 });
      expect(truncated).toBe(1);
      expect(contents.slice(1)).toEqual(history.slice(1));
      const output = (contents[0].parts?.[0].functionResponse?.response as { output: string }).output;
      expect(output).toContain('79,000 of 80,000 characters were cut');
      expect(output).toContain('sha256:0000000000000000000000000000000000000000000000000000000000000001');
      expect(output).toContain(`${'o'.repeat(200)}\n`);
      expect(kept).toEqual([big('o')]);
      expect(history[0].parts?.[0].functionResponse?.response).toEqual({ output: big('o') });
    },
  );

  it('shortens even the newest response when it alone exceeds the budget, and leaves short ones alone', async () => {
    const history = [response('small', 'tiny'), response('huge', 'h'.repeat(400))];
    const { contents, truncated } = await truncateOldFunctionResponses(history, 50, { keep, maxChars: 100 });
    expect(truncated).toBe(1);
    expect(contents[0]).toEqual(history[0]);
    expect(contents[1].parts?.[0].functionResponse?.name).toBe('huge');
  });

  it('measures the text of a response without an output field as pretty JSON', async () => {
    const history: Content[] = [
      { role: 'user', parts: [{ functionResponse: { name: 't', response: { error: 'e'.repeat(400) } } }] },
    ];
    const { contents } = await truncateOldFunctionResponses(history, 10, { keep, maxChars: 100 });
    expect(kept[0]).toBe(JSON.stringify({ error: 'e'.repeat(400) }, null, 2));
    expect(contents[0].parts?.[0].functionResponse?.response).toEqual({ output: expect.stringContaining('were cut') });
  });
});

describe('formatTruncatedOutput', () => {
  it('keeps 20% of the allowance from the start and 80% from the end', () => {
    const text = `${'h'.repeat(500)}${'m'.repeat(1000)}${'t'.repeat(500)}`;
    const out = formatTruncatedOutput(text, 'sha256:x', 1000);
    expect(out).toContain(
      `]\n${'h'.repeat(200)}\n\n[... 1,000 characters cut ...]\n\n${'m'.repeat(300)}${'t'.repeat(500)}`,
    );
    expect(formatTruncatedOutput('short', 'sha256:x', 1000)).toBe('short');
  });
});

describe('checkContextFit', () => {
  it('compares the estimated request with what the last prompt left of the limit', () => {
    expect(checkContextFit('gemini-2.5-pro', 1_000_000, 48_576)).toEqual({
      fits: true,
      estimatedRequestTokens: 48_576,
      remainingTokens: 48_576,
    });
    expect(checkContextFit('gemini-2.5-pro', 1_000_000, 48_577).fits).toBe(false);
  });
});
