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
  ['/rewind', { kind: 'rewind' }],
  ['/rewind 3', { kind: 'rewind', turn: 3 }],
  ['/restore', { kind: 'restore' }],
  ['/restore  2.1-write_file ', { kind: 'restore', name: '2.1-write_file' }],
])('%j is %j', (line, expected) => {
  expect(parseChatLine(line)).toEqual(expected);
});

test.each([
  ['/steer', /needs the text/],
  ['/steer   ', /needs the text/],
  ['/frobnicate now', /unknown command \/frobnicate; type \/help/],
  ['/', /unknown command \/;/],
  ['/quit now', /\/quit takes no argument/],
  ['/rewind 0', /\/rewind takes a turn number from 1/],
  ['/rewind two', /\/rewind takes a turn number from 1 .* not "two"/],
  ['/rewind -1', /\/rewind takes a turn number/],
  ['/restore a b', /\/restore takes one tool call/],
])('%j is refused with a clear message', (line, message) => {
  const parsed = parseChatLine(line);
  expect(parsed.kind).toBe('bad');
  expect((parsed as { message: string }).message).toMatch(message);
});
