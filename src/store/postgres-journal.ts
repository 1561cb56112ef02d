import type { Pool } from 'pg';
import { migrateLocked } from './postgres-migrate';
import type { JournalEntry, ToolJournal } from './journal';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS tool_journal (
    key TEXT PRIMARY KEY,
    entry JSONB NOT NULL
  )`;

/** The side-effect journal in PostgreSQL, for workers on several machines sharing one database. */
export class PostgresToolJournal implements ToolJournal {
  constructor(private readonly pool: Pool) {}

  async migrate(): Promise<void> {
    await migrateLocked(this.pool, SCHEMA);
  }

  async get(key: string): Promise<JournalEntry | undefined> {
    const { rows } = await this.pool.query<{ entry: JournalEntry }>('SELECT entry FROM tool_journal WHERE key = $1', [
      key,
    ]);
    return rows[0]?.entry;
  }

  async put(key: string, entry: JournalEntry): Promise<void> {
    await this.pool.query(
      'INSERT INTO tool_journal (key, entry) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET entry = excluded.entry',
      [key, JSON.stringify(entry)],
    );
  }
}
