import type { Content } from '@google/genai';
import { MASKED_TAG, findMaskableOutputs, maskOldToolOutputs, maskedOutputText } from './masking';

const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });
const call = (name: string): Content => ({ role: 'model', parts: [{ functionCall: { name, args: {} } }] });
const response = (name: string, output: string): Content => ({
  role: 'user',
  parts: [{ functionResponse: { name, response: { output } } }],
});
/** A tool output of about `tokens` estimated tokens (four ASCII characters a token). */
const sized = (tokens: number, fill = 'x') => fill.repeat(tokens * 4);

/** Tool exchanges oldest first, then a final user message (the latest turn). */
function history(outputs: { name?: string; text: string }[]): Content[] {
  return [...outputs.flatMap(({ name = 'read_file', text }) => [call(name), response(name, text)]), user('next')];
}

const refs: string[] = [];
const keep = async (text: string) => {
  refs.push(text);
  return `sha256:${String(refs.length).padStart(64, '0')}`;
};
beforeEach(() => refs.splice(0));

describe('findMaskableOutputs', () => {
  it('protects the newest 50,000 tokens and masks the crossing output and older ones once 30,000 are prunable', () => {
    const contents = history([
      { text: sized(20_000) },
      { text: sized(20_000) },
      { text: sized(30_000) },
      { text: sized(30_000) },
    ]);
    const picked = findMaskableOutputs(contents);
    // Newest first: 30k (protected), 30k (crosses 50k: prunable), then the two older 20k outputs.
    expect(picked.map((c) => c.message)).toEqual([5, 3, 1]);
    expect(picked.every((c) => c.part === 0 && c.toolName === 'read_file')).toBe(true);
  });

  it('masks nothing while less than 30,000 tokens are prunable', () => {
    expect(findMaskableOutputs(history([{ text: sized(20_000) }, { text: sized(45_000) }]))).toEqual([]);
  });

  it('leaves the latest entry alone, and exempt or already masked outputs too', () => {
    const latest = [call('a'), response('read_file', sized(200_000))];
    expect(findMaskableOutputs(latest)).toEqual([]);
    expect(findMaskableOutputs(latest, { protectLatestTurn: false, protectionThreshold: 10 }).length).toBe(1);
    const exempt = history([
      { name: 'exit_plan_mode', text: sized(100_000) },
      { text: `<${MASKED_TAG}>${sized(100_000)}` },
      { text: sized(10) },
    ]);
    expect(findMaskableOutputs(exempt, { protectionThreshold: 0, minPrunableTokens: 0 }).map((c) => c.message)).toEqual(
      [5],
    );
  });
});

describe('maskedOutputText', () => {
  it('previews other tools by their first and last 250 characters and names the reference', () => {
    const text = `${'a'.repeat(300)}${'b'.repeat(400)}${'c'.repeat(300)}`;
    const masked = maskedOutputText({ toolName: 'read_file', text, tokens: 250 }, 'sha256:abc');
    expect(
      masked.startsWith(`<${MASKED_TAG}>\n${'a'.repeat(250)}\n... [500 characters omitted] ...\n${'c'.repeat(250)}`),
    ).toBe(true);
    expect(masked).toContain('stored as sha256:abc; read it with read_tool_output');
    expect(masked.endsWith(`</${MASKED_TAG}>`)).toBe(true);
  });

  it('previews shell output by the first and last 10 lines of its Output section and keeps status lines', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
    const text = `Output: ${lines.join('\n')}\nExit Code: 2\nSignal: SIGTERM`;
    const masked = maskedOutputText({ toolName: 'run_shell_command', text, tokens: 100 }, 'sha256:abc');
    expect(masked).toContain('Output: line 1\nline 2');
    expect(masked).toContain('line 10\n... [10 lines omitted] ...\nline 21');
    expect(masked).toContain('line 30\nExit Code: 2\nSignal: SIGTERM');
    expect(masked).not.toContain('line 11\n');
  });
});

describe('maskOldToolOutputs', () => {
  it('replaces prunable outputs, keeps their full text and reports the tokens saved', async () => {
    const old = sized(40_000, 'o');
    const contents = history([{ text: old }, { text: sized(60_000) }]);
    const result = await maskOldToolOutputs(contents, keep);
    expect(result.masked).toBe(2);
    expect(result.tokensSaved).toBeGreaterThan(90_000);
    expect(refs).toEqual([sized(60_000), old]);
    const output = (result.contents[1].parts?.[0].functionResponse?.response as { output: string }).output;
    expect(output).toContain(`<${MASKED_TAG}>`);
    expect(output).toContain('sha256:0000000000000000000000000000000000000000000000000000000000000002');
    expect(contents[1].parts?.[0].functionResponse?.response).toEqual({ output: old });
    expect(result.contents[4]).toEqual(contents[4]);
  });

  it(
    'masks the same part objects again without keeping their text again (a caching store hands them out on every ' +
      'request)',
    async () => {
      const contents = history([{ text: sized(40_000, 'o') }, { text: sized(60_000) }]);
      const first = await maskOldToolOutputs(contents, keep);
      const again = await maskOldToolOutputs([...contents, call('read_file')], keep);
      expect(refs).toHaveLength(2);
      expect(again.masked).toBe(2);
      expect(again.contents.slice(0, 5)).toEqual(first.contents);
      // Equal but fresh objects (a store that parses every time) are measured and kept afresh.
      await maskOldToolOutputs(structuredClone(contents), keep);
      expect(refs).toHaveLength(4);
    },
  );

  it('keeps an output whose replacement would not be smaller', async () => {
    const contents = history([{ text: 'short' }, { text: sized(100) }]);
    const result = await maskOldToolOutputs(contents, keep, { protectionThreshold: 0, minPrunableTokens: 0 });
    expect(result).toEqual({ contents, masked: 0, tokensSaved: 0 });
  });
});

describe('masking one very long line of shell output', () => {
  it('cuts the preview by characters, so the masked text is much smaller', async () => {
    const output = `Output: ${'z'.repeat(39_000)}`;
    const response = (i: number): Content => ({
      role: 'user',
      parts: [{ functionResponse: { id: `c${i}`, name: 'run_shell_command', response: { output } } }],
    });
    const call = (i: number): Content => ({
      role: 'model',
      parts: [{ functionCall: { id: `c${i}`, name: 'run_shell_command', args: {} } }],
    });
    const contents: Content[] = [{ role: 'user', parts: [{ text: 'go' }] }];
    for (let i = 0; i < 10; i++) contents.push(call(i), response(i));
    const result = await maskOldToolOutputs(contents, async () => `sha256:${'a'.repeat(64)}`);
    expect(result.masked).toBeGreaterThan(0);
    expect(JSON.stringify(result.contents).length).toBeLessThan(JSON.stringify(contents).length - 100_000);
  });
});
