import { countOccurrences, keepsReplacement, toLf, unescapeOverEscaped } from './edit-text';

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

describe('keepsReplacement', () => {
  test.each([
    ['the same text', 'a = 1\n', 'a = 1\n'],
    ['a consistent re-indentation', 'def f():\n  if x:\n    y()\n  z()', 'def f():\n    if x:\n        y()\n    z()'],
    ['tabs for spaces', 'if x:\n  y()', 'if x:\n\ty()'],
    ['CRLF and trailing spaces', 'a\r\nb  ', 'a\nb'],
    ['one level of escaping removed', 'say \\"hi\\"', 'say "hi"'],
    ['a blank line that gains spaces', 'a\n\nb', 'a\n    \nb'],
  ])('accepts %s', (_name, approved, proposed) => {
    expect(keepsReplacement(approved, proposed)).toBe(true);
  });

  test.each([
    ['another value', 'password_check = True\ntimeout = 60', 'password_check = False\ntimeout = 60'],
    ['an added line', 'timeout = 60', 'password_check = False\ntimeout = 60'],
    ['a dropped line', 'a\nb', 'a'],
    ['a line moved out of its block', 'if x:\n  y()\n  z()', 'if x:\n    y()\nz()'],
    ['two depths made one', 'if x:\n  y()\n    z()', 'if x:\n  y()\n  z()'],
    ['nesting reversed', 'a\n  b', '  a\nb'],
    ['an empty replacement', 'a = 1', ''],
  ])('refuses %s', (_name, approved, proposed) => {
    expect(keepsReplacement(approved, proposed)).toBe(false);
  });
});
