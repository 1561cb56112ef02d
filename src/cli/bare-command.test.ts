import { geminiStyle, newSessionName } from './bare-command';

const argv = (...args: string[]) => ['node', 'durable-agent', ...args];

describe('geminiStyle', () => {
  it('opens a chat on a new session with no arguments on a terminal, and runs a piped prompt otherwise', () => {
    expect(geminiStyle(argv(), true)).toEqual(argv('chat', expect.stringMatching(/^[A-Za-z0-9][\w.-]*-\d{12}-/)));
    expect(geminiStyle(argv(), false)).toEqual(argv('run'));
  });

  it('sends leading options to run and keeps help, version and commands', () => {
    expect(geminiStyle(argv('-p', 'hi', '-y'), true)).toEqual(argv('run', '-p', 'hi', '-y'));
    for (const flag of ['-v', '-V', '--version', '-h', '--help'])
      expect(geminiStyle(argv(flag), true)).toEqual(argv(flag));
    expect(geminiStyle(argv('list'), true)).toEqual(argv('list'));
  });

  it('takes Gemini CLI’s editor flags, anywhere, for the acp command', () => {
    expect(geminiStyle(argv('--acp'), true)).toEqual(argv('acp'));
    expect(geminiStyle(argv('--experimental-acp'), false)).toEqual(argv('acp'));
    expect(geminiStyle(argv('-m', 'x', '--experimental-acp'), false)).toEqual(argv('acp', '-m', 'x'));
  });
});

describe('newSessionName', () => {
  const now = new Date('2026-11-27T18:05:09Z');
  it('names the session after the directory and the minute', () => {
    expect(newSessionName('/home/me/my project', now)).toMatch(/^my-project-202611271805-[0-9a-f]{4}$/);
  });
  it('falls back to "chat" for a directory whose name has no usable character', () => {
    expect(newSessionName('/', now)).toMatch(/^chat-202611271805-/);
    expect(newSessionName('/tmp/..., ', now)).toMatch(/^chat-202611271805-/);
  });
});
