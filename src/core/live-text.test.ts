import { LiveOrder, LiveTextTracker, piecesOf, type StreamPiece } from './live-text';

const piece = (text: string, attempt = 'a', seq = 0, turn = 1, kind: StreamPiece['kind'] = 'text'): StreamPiece => ({
  turn,
  attempt,
  seq,
  kind,
  text,
});
const texts = (outs: { text: string; restart?: boolean }[]) => outs.map((o) => (o.restart ? `!${o.text}` : o.text));

describe('LiveTextTracker', () => {
  it('shows pieces as they come and only the rest of the recorded text', () => {
    const t = new LiveTextTracker();
    expect(texts(t.piece(piece('Hel')))).toEqual(['Hel']);
    expect(texts(t.piece(piece('lo ', 'a', 1)))).toEqual(['lo ']);
    expect(texts(t.final('text', 1, 'Hello world'))).toEqual(['world']);
  });

  it('shows a retry that repeats the text only past what is on screen', () => {
    const t = new LiveTextTracker();
    t.piece(piece('Hello '));
    t.piece(piece('brave ', 'a', 1));
    expect(texts(t.piece(piece('Hello ', 'b')))).toEqual([]);
    expect(texts(t.piece(piece('brave ', 'b', 1)))).toEqual([]);
    expect(texts(t.piece(piece('world', 'b', 2)))).toEqual(['world']);
    expect(texts(t.final('text', 1, 'Hello brave world'))).toEqual([]);
  });

  it('replaces the shown text when a retry says something else', () => {
    const t = new LiveTextTracker();
    t.piece(piece('Hello'));
    expect(texts(t.piece(piece('Bye', 'b')))).toEqual(['!Bye']);
    expect(texts(t.final('text', 1, 'Bye now'))).toEqual([' now']);
  });

  it('ignores late pieces of a superseded attempt and of a finished turn', () => {
    const t = new LiveTextTracker();
    t.piece(piece('A'));
    t.piece(piece('AB', 'b'));
    expect(t.piece(piece('x', 'a', 1))).toEqual([]);
    t.final('text', 1, 'AB');
    expect(t.piece(piece('C', 'c'))).toEqual([]);
  });

  it('shows the whole recorded text of a turn it saw no pieces of, also an old one', () => {
    const t = new LiveTextTracker();
    t.piece(piece('ten', 'a', 0, 10));
    expect(texts(t.final('text', 2, 'two'))).toEqual(['two']);
    expect(texts(t.final('text', 10, 'ten!'))).toEqual(['!']);
  });

  it('keeps text and thoughts of a turn apart', () => {
    const t = new LiveTextTracker();
    expect(t.piece(piece('plan', 'a', 0, 1, 'thought'))).toEqual([{ kind: 'thought', turn: 1, text: 'plan' }]);
    expect(texts(t.piece(piece('answer')))).toEqual(['answer']);
    expect(t.final('thought', 1, '')).toEqual([]);
  });
});

describe('piecesOf', () => {
  it('takes text and thought parts in order and skips the rest', () => {
    expect(piecesOf([{ text: 'a' }, { thought: true, text: 't' }, { text: '' }, {}])).toEqual([
      { kind: 'text', text: 'a' },
      { kind: 'thought', text: 't' },
    ]);
  });
});

describe('LiveOrder', () => {
  it('holds the next turn back until the tool results of this one were shown', () => {
    const order = new LiveOrder();
    expect(order.release([piece('one', 'a', 0, 1)])).toHaveLength(1);
    order.event({ type: 'tool_call_request', turn: 1, callId: 'c1' });
    expect(order.release([piece('two', 'a', 0, 2)])).toEqual([]);
    expect(order.release([piece('three', 'a', 0, 3)])).toEqual([]);
    order.event({ type: 'tool_call_response', callId: 'c1' });
    expect(order.release([]).map((p) => p.text)).toEqual(['two']);
    order.event({ type: 'finished', turn: 2 });
    expect(order.release([]).map((p) => p.text)).toEqual(['three']);
  });
});
