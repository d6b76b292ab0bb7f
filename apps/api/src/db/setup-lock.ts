import type pg from 'pg';

/**
 * The key of the advisory lock under which a process sets up the schema (migrations and the
 * queue's own schema). Any constant works as long as every process uses the same one.
 */
const SETUP_LOCK_KEY = 724_011_903;

/**
 * Runs `setup` while holding a session-level PostgreSQL advisory lock, so processes started at
 * once on an empty database (a split deployment's first start) set the schema up one after the
 * other: PostgreSQL's `create schema if not exists` and `create table if not exists` are not safe
 * against each other ("duplicate key value violates unique constraint pg_namespace_nspname_index").
 * The later processes find the work done. The lock is on a connection of its own and is released
 * when `setup` ends or fails (or when the connection dies with the process).
 */
export async function withSetupLock<T>(pool: pg.Pool, setup: () => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('select pg_advisory_lock($1)', [SETUP_LOCK_KEY]);
    try {
      return await setup();
    } finally {
      await client.query('select pg_advisory_unlock($1)', [SETUP_LOCK_KEY]).catch(() => {
        broken = true;
      });
    }
  } catch (err) {
    broken = true;
    throw err;
  } finally {
    // A connection whose unlock failed is destroyed, which releases the lock too.
    client.release(broken);
  }
}
