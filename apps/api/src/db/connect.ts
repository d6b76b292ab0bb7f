import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { acquireDataDirLock } from './embedded-lock.js';
import type { Database } from './types.js';

export interface DatabaseHandle {
  db: Kysely<Database>;
  pool: pg.Pool;
  kind: 'postgres' | 'embedded';
  close(): Promise<void>;
}

// int8 (counts, sums) as numbers: our counters stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

export async function connectPostgres(url: string, poolSize = 10): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, idleTimeoutMillis: 30_000 });
  // An idle connection dropped by the server must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    pool,
    kind: 'postgres',
    close: () => db.destroy(),
  };
}

/**
 * The embedded default: PGlite under DATA_DIR, through its node-postgres shim so production and
 * embedded share one dialect and one driver. One process only (pid-file lock).
 */
export async function connectEmbedded(dataDir: string): Promise<DatabaseHandle> {
  const dir = path.join(dataDir, 'db');
  const release = acquireDataDirLock(dataDir);
  try {
    const pglite = await PGlite.create(dir);
    const pool = new pg.Pool({ ...createPgConfig(pglite), max: 1 } as pg.PoolConfig);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      pool,
      kind: 'embedded',
      close: async () => {
        await db.destroy();
        await pglite.close();
        release();
      },
    };
  } catch (err) {
    release();
    throw err;
  }
}
