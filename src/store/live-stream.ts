import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { StreamPiece } from '../core/live-text';
import { PRIVATE_DIR, PRIVATE_FILE } from '../private-files';

/**
 * The side channel for live model output (invariant 4 in docs/architecture.md keeps it out of history): the model
 * activity publishes pieces as they stream, `run`/`watch`/`chat` read them. It lives beside the
 * transcript store, so it survives worker restarts; it is a preview with bounded retention, and the
 * events of a prompt stay its record.
 */
export interface LiveStream {
  publish(workflowId: string, pieces: StreamPiece[]): Promise<void>;
  /** Pieces published after `cursor` (start with `undefined`), and the cursor to read on from. */
  read(workflowId: string, cursor: LiveCursor | undefined): Promise<{ pieces: StreamPiece[]; cursor: LiveCursor }>;
}

/** Opaque to readers: bytes read per turn file (files) or the last row id (PostgreSQL). */
export type LiveCursor = Record<string, number>;

/** Turns of a prompt whose pieces are kept: the current one and two before it. */
export const LIVE_TURNS_KEPT = 3;
/** A prompt's pieces are removed this long after its last publish (at the next sweep). */
export const LIVE_RETENTION_MS = 24 * 3600_000;
const SWEEP_INTERVAL_MS = 3600_000;

/**
 * Files under `<root>/<digest of workflow id>/<turn>.jsonl`, one JSON line per piece appended with
 * `O_APPEND` (a whole line per write, so readers never see half a piece after the newline).
 * Retention: a new turn removes turns older than the last `LIVE_TURNS_KEPT`; once an hour a
 * publishing process removes prompts idle for `LIVE_RETENTION_MS`.
 */
export class FileLiveStream implements LiveStream {
  private readonly knownTurns = new Map<string, number>();
  private lastSweep = 0;

  constructor(
    private readonly root: string,
    private readonly now: () => number = Date.now,
  ) {}

  async publish(workflowId: string, pieces: StreamPiece[]): Promise<void> {
    if (pieces.length === 0) return;
    const dir = this.dirOf(workflowId);
    const turn = pieces[0].turn;
    if ((this.knownTurns.get(dir) ?? 0) < turn) {
      this.knownTurns.set(dir, turn);
      await fs.mkdir(dir, { recursive: true, mode: PRIVATE_DIR });
      await this.dropOldTurns(dir, turn);
    }
    await fs.appendFile(path.join(dir, `${turn}.jsonl`), pieces.map((p) => `${JSON.stringify(p)}\n`).join(''), {
      mode: PRIVATE_FILE,
    });
    await this.sweep();
  }

  async read(
    workflowId: string,
    cursor: LiveCursor | undefined,
  ): Promise<{ pieces: StreamPiece[]; cursor: LiveCursor }> {
    const dir = this.dirOf(workflowId);
    const next: LiveCursor = { ...cursor };
    const pieces: StreamPiece[] = [];
    for (const turn of await turnsIn(dir)) {
      const file = path.join(dir, `${turn}.jsonl`);
      const text = await readFrom(file, next[turn] ?? 0);
      const end = text.lastIndexOf('\n') + 1;
      next[turn] = (next[turn] ?? 0) + Buffer.byteLength(text.slice(0, end));
      for (const line of text.slice(0, end).split('\n')) if (line) pieces.push(JSON.parse(line) as StreamPiece);
    }
    return { pieces, cursor: next };
  }

  private dirOf(workflowId: string): string {
    return path.join(this.root, createHash('sha256').update(workflowId).digest('hex').slice(0, 32));
  }

  private async dropOldTurns(dir: string, turn: number): Promise<void> {
    for (const old of await turnsIn(dir)) {
      if (old <= turn - LIVE_TURNS_KEPT) await fs.rm(path.join(dir, `${old}.jsonl`), { force: true });
    }
  }

  private async sweep(): Promise<void> {
    if (this.now() - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = this.now();
    const entries = await fs.readdir(this.root).catch(() => [] as string[]);
    for (const entry of entries) {
      const dir = path.join(this.root, entry);
      const stat = await fs.stat(dir).catch(() => undefined);
      if (stat && this.now() - stat.mtimeMs > LIVE_RETENTION_MS) await fs.rm(dir, { recursive: true, force: true });
    }
  }
}

async function turnsIn(dir: string): Promise<number[]> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  return names
    .map((name) => /^(\d+)\.jsonl$/.exec(name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
}

/** The file's bytes from `offset` on, as text ('' when it is gone: retention removed it). */
async function readFrom(file: string, offset: number): Promise<string> {
  const handle = await fs.open(file, 'r').catch(() => undefined);
  if (!handle) return '';
  try {
    const { size } = await handle.stat();
    if (size <= offset) return '';
    const buffer = Buffer.alloc(size - offset);
    await handle.read(buffer, 0, buffer.length, offset);
    return buffer.toString('utf8');
  } finally {
    await handle.close();
  }
}
