import { createHash } from 'node:crypto';
import type { Kysely, RawBuilder } from 'kysely';
import type pg from 'pg';
import type { Database } from './types.js';

export type RunStatement = <R>(query: RawBuilder<R>) => Promise<{ rows: R[] }>;

/**
 * Runs a hot-path statement as a named prepared statement (PostgreSQL then plans it once per
 * connection instead of on every request). The name is derived from the SQL text, so a different
 * text (an injected clock offset, say) gets its own statement. Used only on real PostgreSQL; the
 * embedded shim runs them as ordinary statements.
 */
export function preparedRunner(db: Kysely<Database>, pool: pg.Pool | null): RunStatement {
  if (!pool) return (query) => query.execute(db);
  const names = new Map<string, string>();
  return async <R>(query: RawBuilder<R>) => {
    const compiled = query.compile(db);
    let name = names.get(compiled.sql);
    if (!name) {
      name = `q_${createHash('sha1').update(compiled.sql).digest('hex').slice(0, 20)}`;
      if (names.size < 1000) names.set(compiled.sql, name);
    }
    const client = await pool.connect();
    try {
      const res = await client.query({ name, text: compiled.sql, values: compiled.parameters as unknown[] });
      return { rows: res.rows as R[] };
    } finally {
      client.release();
    }
  };
}
