import type { StreamPiece } from '../core/live-text';
import type { LiveStream } from './live-stream';

const piece = (turn: number, seq: number, text = `t${turn}.${seq}`): StreamPiece => ({
  turn,
  attempt: 'a.1.1',
  seq,
  kind: 'text',
  text,
});

/** What every live stream does, run against the file and the PostgreSQL implementations. */
export function describeLiveStream(
  name: string,
  open: () => Promise<{ live: LiveStream; another(): LiveStream; cleanup(): Promise<void> }>,
): void {
  describe(`${name} (live stream contract)`, () => {
    let subject: Awaited<ReturnType<typeof open>>;
    beforeEach(async () => {
      subject = await open();
    });
    afterEach(() => subject.cleanup());

    it('reads what was published after the cursor, per prompt, also from another process', async () => {
      const { live } = subject;
      await live.publish('wf-1', [piece(1, 0), piece(1, 1)]);
      await live.publish('wf-2', [piece(1, 0, 'other')]);
      const first = await subject.another().read('wf-1', undefined);
      expect(first.pieces).toEqual([piece(1, 0), piece(1, 1)]);
      await live.publish('wf-1', [piece(1, 2), piece(2, 0)]);
      const next = await subject.another().read('wf-1', first.cursor);
      expect(next.pieces.map((p) => p.text)).toEqual(['t1.2', 't2.0']);
      expect((await live.read('wf-1', next.cursor)).pieces).toEqual([]);
    });

    it('keeps the last three turns of a prompt', async () => {
      for (let turn = 1; turn <= 5; turn++) await subject.live.publish('wf', [piece(turn, 0)]);
      expect((await subject.live.read('wf', undefined)).pieces.map((p) => p.turn)).toEqual([3, 4, 5]);
    });
  });
}
