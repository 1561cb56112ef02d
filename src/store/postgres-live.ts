import type { Pool } from 'pg';
import { migrateLocked } from './postgres-migrate';
import type { StreamPiece } from '../core/live-text';
import { LIVE_RETENTION_MS, LIVE_TURNS_KEPT, type LiveCursor, type LiveStream } from './live-stream';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS live_pieces (
    id BIGSERIAL PRIMARY KEY,
    workflow_id TEXT NOT NULL,
    turn INTEGER NOT NULL,
    piece JSONB NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
  );
  CREATE INDEX IF NOT EXISTS live_pieces_by_workflow ON live_pieces (workflow_id, id)`;

const SWEEP_INTERVAL_MS = 3600_000;

/**
 * Live model output in PostgreSQL, for watchers on other machines than the worker. Same retention
 * as the file stream: the last `LIVE_TURNS_KEPT` turns of a prompt, and nothing older than
 * `LIVE_RETENTION_MS`. The cursor is the last row id read.
 */
export class PostgresLiveStream implements LiveStream {
  private readonly knownTurns = new Map<string, number>();
  private lastSweep = 0;

  constructor(private readonly pool: Pool) {}

  async migrate(): Promise<void> {
    await migrateLocked(this.pool, SCHEMA);
  }

  async publish(workflowId: string, pieces: StreamPiece[]): Promise<void> {
    if (pieces.length === 0) return;
    const turn = pieces[0].turn;
    if ((this.knownTurns.get(workflowId) ?? 0) < turn) {
      this.knownTurns.set(workflowId, turn);
      await this.pool.query('DELETE FROM live_pieces WHERE workflow_id = $1 AND turn <= $2', [
        workflowId,
        turn - LIVE_TURNS_KEPT,
      ]);
    }
    const values = pieces.map((_, i) => `($1, $2, $${i + 3})`).join(', ');
    await this.pool.query(`INSERT INTO live_pieces (workflow_id, turn, piece) VALUES ${values}`, [
      workflowId,
      turn,
      ...pieces.map((p) => JSON.stringify(p)),
    ]);
    if (Date.now() - this.lastSweep > SWEEP_INTERVAL_MS) {
      this.lastSweep = Date.now();
      await this.pool.query('DELETE FROM live_pieces WHERE created_at < now() - $1::interval', [
        `${LIVE_RETENTION_MS / 1000} seconds`,
      ]);
    }
  }

  async read(
    workflowId: string,
    cursor: LiveCursor | undefined,
  ): Promise<{ pieces: StreamPiece[]; cursor: LiveCursor }> {
    const after = cursor?.id ?? 0;
    const { rows } = await this.pool.query<{ id: string; piece: StreamPiece }>(
      'SELECT id, piece FROM live_pieces WHERE workflow_id = $1 AND id > $2 ORDER BY id',
      [workflowId, after],
    );
    return {
      pieces: rows.map((r) => r.piece),
      cursor: { id: rows.length > 0 ? Number(rows[rows.length - 1].id) : after },
    };
  }
}
