import { countOccurrences, toLf, unescapeOverEscaped } from './edit-text';

describe('unescapeOverEscaped', () => {
  test.each([
    ['line\\nbreak', 'line\nbreak'],
    ['tab\\there', 'tab\there'],
    ['cr\\r\\n', 'cr\r\n'],
    ['say \\"hi\\" and \\\'yo\\\'', 'say "hi" and \'yo\''],
    ['tick \\`x\\`', 'tick `x`'],
    ['double \\\\n', 'double \n'],
    ['a backslash \\\\ stays one', 'a backslash \\ stays one'],
    ['escaped real break \\\nnext', 'escaped real break \nnext'],
  ])('%j becomes %j', (text, expected) => {
    expect(unescapeOverEscaped(text)).toBe(expected);
  });

  test('text without escape sequences comes back unchanged', () => {
    const text = 'plain text\nwith "quotes" and C:\\path\\x';
    expect(unescapeOverEscaped(text)).toBe(text);
  });
});

describe('countOccurrences', () => {
  test('counts non-overlapping occurrences left to right', () => {
    expect(countOccurrences('aaaa', 'aa')).toBe(2);
    expect(countOccurrences('abc abc', 'abc')).toBe(2);
    expect(countOccurrences('abc', 'x')).toBe(0);
  });

  test('an empty search occurs nowhere', () => {
    expect(countOccurrences('abc', '')).toBe(0);
  });
});

test('toLf turns CRLF into LF only', () => {
  expect(toLf('a\r\nb\rc\n')).toBe('a\nb\rc\n');
});
