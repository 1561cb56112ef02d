/**
 * Live model output: pieces of text and thoughts published while a model turn streams, and the
 * bookkeeping that shows them once. Pieces are a preview; the turn's `content` event is the record.
 */

export type LiveKind = 'text' | 'thought';

/**
 * One streamed piece. `attempt` names one try at the turn (activity id, Temporal attempt and the
 * activity's own mid-stream retry), so a retried try's pieces can be told from the ones they replace;
 * `seq` numbers pieces within an attempt.
 */
export interface StreamPiece {
  turn: number;
  attempt: string;
  seq: number;
  kind: LiveKind;
  text: string;
}

/** Text to show: appended to what is on screen, or (`restart`) replacing the turn's text so far. */
export interface LiveOutput {
  kind: LiveKind;
  turn: number;
  text: string;
  restart?: boolean;
}

interface TurnView {
  turn: number;
  attempt?: string;
  superseded: Set<string>;
  attemptText: string;
  shown: string;
  final: boolean;
}

/** Finished turns kept in memory behind the newest: enough to ignore late pieces of a finished turn. */
const KEPT_TURNS = 3;

/**
 * Shows each turn's text once, whatever retries do: a new attempt's text is shown only past what
 * is already on screen when it repeats it (the usual case: the same request answered again), and
 * replaces it when it says something else. The final text of the turn reconciles the same way.
 */
export class LiveTextTracker {
  private readonly turns = new Map<string, TurnView>();
  private newest = 0;

  piece(piece: StreamPiece): LiveOutput[] {
    const view = this.view(piece.kind, piece.turn);
    if (!view || view.final || view.superseded.has(piece.attempt)) return [];
    if (view.attempt !== piece.attempt) {
      if (view.attempt) view.superseded.add(view.attempt);
      view.attempt = piece.attempt;
      view.attemptText = '';
    }
    view.attemptText += piece.text;
    return reconcile(view, piece.kind, piece.turn, view.attemptText);
  }

  /** The turn's recorded text: whatever of it is not on screen yet. */
  final(kind: LiveKind, turn: number, text: string): LiveOutput[] {
    const view = this.view(kind, turn);
    if (!view) return text ? [{ kind, turn, text }] : [];
    if (view.final) return [];
    view.final = true;
    return reconcile(view, kind, turn, text);
  }

  private view(kind: LiveKind, turn: number): TurnView | undefined {
    const key = `${kind}:${turn}`;
    const known = this.turns.get(key);
    if (known) return known;
    // A turn finished and forgotten long ago (a late reader): its text was shown by `final`.
    if (turn <= this.newest - KEPT_TURNS) return undefined;
    if (turn > this.newest) this.advance(turn);
    const view: TurnView = { turn, superseded: new Set(), attemptText: '', shown: '', final: false };
    this.turns.set(key, view);
    return view;
  }

  /** A newer turn began: finished turns far enough behind it are forgotten. */
  private advance(turn: number): void {
    this.newest = turn;
    for (const [key, view] of this.turns) if (view.final && view.turn <= turn - KEPT_TURNS) this.turns.delete(key);
  }
}

function reconcile(view: TurnView, kind: LiveKind, turn: number, text: string): LiveOutput[] {
  if (text.startsWith(view.shown)) {
    const added = text.slice(view.shown.length);
    view.shown = text;
    return added ? [{ kind, turn, text: added }] : [];
  }
  // A retry catching up with what is on screen: nothing new yet.
  if (view.shown.startsWith(text)) return [];
  view.shown = text;
  return [{ kind, turn, text, restart: true }];
}

/** Pieces of one streamed chunk's parts: text and thought text, in order. */
export function piecesOf(parts: readonly { text?: string; thought?: boolean }[]): { kind: LiveKind; text: string }[] {
  return parts
    .filter((p) => typeof p.text === 'string' && p.text.length > 0)
    .map((p) => ({ kind: p.thought ? 'thought' : 'text', text: p.text as string }));
}

/**
 * Keeps live pieces in step with the events: a piece of turn T waits until the events have reached
 * T (the previous turn's events seen and none of its tool calls still open), so a fast reader never
 * shows the next answer before the tool results that lead to it.
 */
export class LiveOrder {
  private readonly waiting: StreamPiece[] = [];
  private readonly openCalls = new Set<string>();
  private turn = 0;

  event(e: { type: string; turn?: number; callId?: string }): void {
    if (typeof e.turn === 'number' && e.turn > this.turn) this.turn = e.turn;
    if (e.type === 'tool_call_request' && e.callId) this.openCalls.add(e.callId);
    if (e.type === 'tool_call_response' && e.callId) this.openCalls.delete(e.callId);
  }

  /** The pieces, with any waiting before them, that may be shown now; the rest keep waiting. */
  release(pieces: StreamPiece[]): StreamPiece[] {
    this.waiting.push(...pieces);
    const ready: StreamPiece[] = [];
    while (this.waiting.length > 0 && this.mayShow(this.waiting[0])) ready.push(this.waiting.shift() as StreamPiece);
    return ready;
  }

  private mayShow(piece: StreamPiece): boolean {
    return piece.turn <= this.turn || (piece.turn === this.turn + 1 && this.openCalls.size === 0);
  }
}
