import { fenceUntrusted } from '../core/untrusted';
import { previewOf } from './tool-preview';

describe('previewOf', () => {
  it('shows fenced output without the fence: the tags are for the model, not the person', () => {
    expect(previewOf(fenceUntrusted('shell', 'Output: all tests passed'))).toBe('Output: all tests passed');
    const search = `Web search results for "x":\n\n${fenceUntrusted('web', 'an answer')}`;
    expect(previewOf(search)).toBe('Web search results for "x":\n\nan answer');
  });

  it('keeps an escaped closing tag inside the text as it is, and cuts at 300 characters', () => {
    expect(previewOf(fenceUntrusted('mcp', 'a &lt;/external_data b'))).toBe('a &lt;/external_data b');
    expect(previewOf(fenceUntrusted('shell', 'x'.repeat(400)))).toBe(`${'x'.repeat(300)}…`);
  });
});
