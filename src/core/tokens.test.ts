import type { Content } from '@google/genai';
import {
  estimatePartTokens,
  estimateTextTokens,
  estimateTokens,
  functionResponseText,
  truncateToolOutputThreshold,
} from './tokens';
import { tokenLimit } from './models';

describe('estimateTextTokens', () => {
  it('counts an ASCII character as 0.25 tokens and any other as 1.5', () => {
    expect(estimateTextTokens('abcd')).toBe(1);
    expect(estimateTextTokens('ééé')).toBe(4.5);
    expect(estimateTextTokens('ab日本')).toBe(3.5);
  });

  it('counts a character outside the BMP once, not per UTF-16 unit', () => {
    expect(estimateTextTokens('😀')).toBe(1.5);
  });

  it('estimates strings over 100,000 characters as length / 4, whatever they contain', () => {
    expect(estimateTextTokens('é'.repeat(100_000))).toBe(150_000);
    expect(estimateTextTokens('é'.repeat(100_004))).toBe(25_001);
  });
});

describe('estimatePartTokens', () => {
  it('estimates function calls and responses from their JSON', () => {
    const call = { functionCall: { name: 'read_file', args: { file_path: 'a.ts' } } };
    expect(estimatePartTokens(call)).toBe(JSON.stringify(call).length / 4);
    const response = { functionResponse: { name: 'read_file', response: { output: 'éé' } } };
    expect(estimatePartTokens(response)).toBe(('read_file'.length + JSON.stringify({ output: 'éé' }).length) / 4);
  });

  it('gives images and PDFs fixed sizes', () => {
    expect(estimatePartTokens({ inlineData: { mimeType: 'image/png', data: 'x'.repeat(9999) } })).toBe(3000);
    expect(estimatePartTokens({ fileData: { mimeType: 'application/pdf', fileUri: 'gs://b/f.pdf' } })).toBe(25_800);
  });
});

describe('estimateTokens', () => {
  it('sums every part of every message and rounds down', () => {
    const contents: Content[] = [
      { role: 'user', parts: [{ text: 'abcdef' }] },
      { role: 'model', parts: [{ text: 'é' }, { text: 'ab' }] },
    ];
    expect(estimateTokens(contents)).toBe(Math.floor(1.5 + 1.5 + 0.5));
    expect(estimateTokens([])).toBe(0);
  });
});

describe('tokenLimit', () => {
  it('is 1,048,576 for Gemini models and 256,000 for Gemma 4', () => {
    expect(tokenLimit('gemini-2.5-pro')).toBe(1_048_576);
    expect(tokenLimit('gemini-3-flash-preview')).toBe(1_048_576);
    expect(tokenLimit('gemma-4-27b-it')).toBe(256_000);
    expect(tokenLimit('models/gemma-4-e4b-it')).toBe(256_000);
  });
});

describe('functionResponseText', () => {
  it('prefers the output or content string, else pretty JSON', () => {
    expect(functionResponseText('plain')).toBe('plain');
    expect(functionResponseText({ output: 'out', content: 'c' })).toBe('out');
    expect(functionResponseText({ content: 'c' })).toBe('c');
    expect(functionResponseText({ error: 'boom' })).toBe('{\n  "error": "boom"\n}');
  });
});

describe('truncateToolOutputThreshold', () => {
  it('is 40,000 characters unless fewer tokens than that are left, four characters a token', () => {
    expect(truncateToolOutputThreshold('gemini-2.5-pro', 600_000)).toBe(40_000);
    expect(truncateToolOutputThreshold('gemini-2.5-pro', 1_048_576 - 1000)).toBe(4000);
    expect(truncateToolOutputThreshold('gemini-2.5-pro', 2_000_000)).toBe(0);
  });
});
