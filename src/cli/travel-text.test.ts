import { CANNOT_UNDO, checkpointsText, rewindText } from './travel-text';

describe('rewindText', () => {
  it('says what was restored, what checkpoints cannot undo, and how to undo and go on', () => {
    const text = rewindText(
      {
        sessionId: 's',
        turn: 1,
        files: { created: ['b.txt'], modified: ['a.txt'], deleted: ['c.txt'] },
        conversation: { id: 't', length: 2 },
      },
      false,
    );
    expect(text).toContain('Rewound s to turn 1.');
    expect(text).toContain('Files: 1 created, 1 modified, 1 deleted\n  + b.txt\n  ~ a.txt\n  - c.txt');
    expect(text).toContain('Conversation: the next prompt continues from turn 1.');
    expect(text).toContain(CANNOT_UNDO);
    expect(text).toMatch(/rewind s --undo/);
  });

  it('says when files or conversation were left alone', () => {
    const text = rewindText({ sessionId: 's', turn: 2 }, false);
    expect(text).toContain('Files: left as they are.');
    expect(text).toContain('Conversation: left as it is.');
  });
});

test('checkpointsText lists each turn and what each of its calls changed', () => {
  const text = checkpointsText([
    {
      turn: 1,
      promptId: 'p',
      checkpoint: 'sha256:1',
      calls: [{ callId: 'c1', name: 'run_shell_command', added: ['n.txt'], modified: [], deleted: ['o.txt'] }],
    },
    { turn: 2, promptId: 'p', calls: [] },
  ]);
  expect(text).toBe('turn 1  p  sha256:1\n  run_shell_command c1: +n.txt -o.txt\nturn 2  p  (no checkpoint)\n');
});
