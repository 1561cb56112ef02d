import { InputError } from './input-error';
import { turnPoint, type TravelTurns } from './turn-point';

const transcript = { id: 'session/s', length: 2 };
const turns: TravelTurns = {
  id: 's',
  workspace: '/w',
  turns: [
    { turn: 1, promptId: 's-p1', transcript, calls: [] },
    {
      turn: 2,
      promptId: 's-p1',
      transcript,
      checkpoint: 'sha256:two',
      calls: [{ callId: 'c', name: 'write_file', before: 'sha256:one' }],
    },
    { turn: 3, promptId: 's-p2', calls: [] },
  ],
};
const both = { files: true, conversation: true };

describe('turnPoint', () => {
  it("gives a turn's checkpoint and conversation", () => {
    expect(turnPoint(turns, 2, both)).toMatchObject({ checkpoint: 'sha256:two', transcript });
  });

  it('gives a turn before any change the workspace the first later call found', () => {
    expect(turnPoint(turns, 1, both).checkpoint).toBe('sha256:one');
  });

  it('refuses a turn out of range, naming the turns there are', () => {
    expect(() => turnPoint(turns, 4, both)).toThrow(new InputError('turn 4 is out of range: s has turns 1 to 3'));
    expect(() => turnPoint({ ...turns, turns: [] }, 1, both)).toThrow('s has no turns yet');
  });

  it('refuses a turn without what is asked of it, and says which half can still be rewound', () => {
    expect(() => turnPoint(turns, 3, both)).toThrow(/no checkpoint.*--conversation-only/);
    expect(() => turnPoint(turns, 3, { files: false, conversation: true })).toThrow(
      /no recorded conversation.*--files-only/,
    );
    expect(turnPoint(turns, 3, { files: false, conversation: false }).turn.turn).toBe(3);
  });
});
