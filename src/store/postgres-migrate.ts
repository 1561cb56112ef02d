import type { Pool } from 'pg';

/** Any constant: serialises schema creation between processes that start at the same moment. */
const MIGRATE_LOCK_KEY = 0x64615f73;

/**
 * Runs `schema` (`CREATE ... IF NOT EXISTS` statements) under a transaction-scoped advisory lock. Two
 * workers starting at once on an empty database otherwise race inside PostgreSQL's catalogue, and
 * one fails with a duplicate key on `pg_type` although the statement says IF NOT EXISTS.
 */
export async function migrateLocked(pool: Pool, schema: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATE_LOCK_KEY]);
    await client.query(schema);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
