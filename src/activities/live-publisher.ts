import type { StreamChunk } from '../core/assemble-turn';
import { piecesOf, type StreamPiece } from '../core/live-text';
import type { LiveStream } from '../store/live-stream';

export interface LivePublisher {
  /** Publishes a chunk's text and thoughts; never throws, never waits for the write. */
  onChunk(streamAttempt: number, chunk: StreamChunk): void;
  /** Waits for the writes so far (their failures were already reported). */
  flush(): Promise<void>;
}

/**
 * Publishes one model call's streamed pieces in order. `attemptBase` names the activity attempt;
 * the activity's own mid-stream retries add their number, so every try of the turn has its own
 * attempt name. A failing side channel costs the preview only, never the model call.
 */
export function livePublisher(
  live: LiveStream | undefined,
  workflowId: string,
  turn: number,
  attemptBase: string,
  warn: (message: string) => void,
): LivePublisher {
  let chain: Promise<void> = Promise.resolve();
  const seqs = new Map<number, number>();
  let warned = false;
  return {
    onChunk(streamAttempt, chunk) {
      if (!live) return;
      const parts = piecesOf(chunk.candidates?.[0]?.content?.parts ?? []);
      if (parts.length === 0) return;
      const pieces: StreamPiece[] = parts.map(({ kind, text }) => {
        const seq = seqs.get(streamAttempt) ?? 0;
        seqs.set(streamAttempt, seq + 1);
        return { turn, attempt: `${attemptBase}.${streamAttempt + 1}`, seq, kind, text };
      });
      chain = chain
        .then(() => live.publish(workflowId, pieces))
        .catch((err: unknown) => {
          if (!warned) warn(`live output not published: ${err instanceof Error ? err.message : String(err)}`);
          warned = true;
        });
    },
    flush: () => chain,
  };
}
