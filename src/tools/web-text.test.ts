import { normalizeUrl, rawGithubUrl, urlsIn, withCitations } from './web-text';

test('URLs are the http(s) tokens of the prompt; other URL-like tokens are errors', () => {
  expect(urlsIn('see https://a.example/x, and http://b.example ftp://c http://[bad plain')).toEqual({
    urls: ['https://a.example/x,', 'http://b.example/'],
    errors: [
      'Unsupported protocol in "ftp://c": only http and https URLs can be fetched.',
      'Malformed URL: "http://[bad".',
    ],
  });
});

test('duplicates collapse; a GitHub blob page is fetched as its raw file', () => {
  expect(normalizeUrl('HTTPS://Example.COM:443/a/')).toBe('https://example.com/a');
  expect(rawGithubUrl('https://github.com/o/r/blob/main/src/x.ts')).toBe(
    'https://raw.githubusercontent.com/o/r/main/src/x.ts',
  );
  expect(rawGithubUrl('https://github.com/o/r/tree/main')).toBe('https://github.com/o/r/tree/main');
});

test('citations go after their segments, by byte offset; without sources the text is unchanged', () => {
  const grounding = {
    groundingChunks: [{ web: { uri: 'u1', title: 't1' } }, { web: {} }],
    groundingSupports: [
      { segment: { endIndex: 2 }, groundingChunkIndices: [0] },
      { segment: { endIndex: 7 }, groundingChunkIndices: [1, 0] },
    ],
  };
  expect(withCitations('ééa b', grounding)).toBe('é[1]éa b[2][1]\n\nSources:\n[1] t1 (u1)\n[2] Untitled (no URI)');
  expect(withCitations('plain', { groundingSupports: grounding.groundingSupports })).toBe('plain');
});
