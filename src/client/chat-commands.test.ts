import { parseChatLine } from './chat-commands';

test.each([
  ['', { kind: 'empty' }],
  ['   ', { kind: 'empty' }],
  ['hello there', { kind: 'message', text: 'hello there' }],
  ['  padded  ', { kind: 'message', text: 'padded' }],
  ['//etc/hosts is odd', { kind: 'message', text: '/etc/hosts is odd' }],
  ['/steer  use the other file ', { kind: 'steer', text: 'use the other file' }],
  ['/quit', { kind: 'quit' }],
  ['/exit', { kind: 'quit' }],
  ['/close', { kind: 'close' }],
  ['/status', { kind: 'status' }],
  ['/help', { kind: 'help' }],
])('%j is %j', (line, expected) => {
  expect(parseChatLine(line)).toEqual(expected);
});

test.each([
  ['/steer', /needs the text/],
  ['/steer   ', /needs the text/],
  ['/frobnicate now', /unknown command \/frobnicate; type \/help/],
  ['/', /unknown command \/;/],
  ['/quit now', /\/quit takes no argument/],
])('%j is refused with a clear message', (line, message) => {
  const parsed = parseChatLine(line);
  expect(parsed.kind).toBe('bad');
  expect((parsed as { message: string }).message).toMatch(message);
});
