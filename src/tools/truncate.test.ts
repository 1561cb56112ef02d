import { DEFAULT_MAX_OUTPUT_CHARS, truncateOutput } from './truncate';

describe('truncateOutput', () => {
  it('returns text within the limit unchanged', () => {
    expect(truncateOutput('short')).toBe('short');
    const exact = 'x'.repeat(DEFAULT_MAX_OUTPUT_CHARS);
    expect(truncateOutput(exact)).toBe(exact);
  });

  it('keeps a 20% head and an 80% tail with a note giving the amount cut', () => {
    const text = `${'h'.repeat(30_000)}${'m'.repeat(40_000)}${'t'.repeat(30_000)}`;
    const result = truncateOutput(text);
    expect(result.length).toBeLessThanOrEqual(DEFAULT_MAX_OUTPUT_CHARS);
    const [head, tail] = result.split(/\n\n\[\.\.\. .*\.\.\.\]\n\n/);
    expect(tail.length).toBeGreaterThan(head.length * 3.9);
    expect(tail.length).toBeLessThan(head.length * 4.1);
    expect(head).toMatch(/^h+$/);
    expect(tail.endsWith('t'.repeat(30_000))).toBe(true);
    expect(result).toContain(
      `${(text.length - head.length - tail.length).toLocaleString('en-US')} of 100,000 characters were cut`,
    );
  });

  it('leaves already truncated text alone', () => {
    const once = truncateOutput('y'.repeat(100_000), 5000);
    expect(truncateOutput(once, 5000)).toBe(once);
  });
});
