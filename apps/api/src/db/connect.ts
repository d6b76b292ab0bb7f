import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { acquireDataDirLock } from './embedded-lock.js';
import type { Database } from './types.js';
import { DATABASE_CIRCUIT_OPEN_MESSAGE, describeDatabaseUrl, isDatabaseUnavailable } from './unavailable.js';

export interface DatabaseHandle {
  db: Kysely<Database>;
  pool: pg.Pool;
  kind: 'postgres' | 'embedded';
  close(): Promise<void>;
}

// int8 (counts, sums) as numbers: our counters stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

export interface PostgresTimeouts {
  /** Opening a connection, or waiting for a free one of the pool. */
  acquireSeconds: number;
  /** Server-side statement_timeout; the client gives up one second later (a paused server). */
  statementSeconds: number;
}

export const DEFAULT_POSTGRES_TIMEOUTS: PostgresTimeouts = { acquireSeconds: 3, statementSeconds: 5 };

type PgClientInternals = pg.PoolClient & { connection?: { stream?: { destroy(): void } } };

/**
 * Every connection of the pool gets an `error` listener for its whole life: pg-pool listens only
 * while a client is idle, and an `error` on a checked-out client (the server restarting under a
 * running statement) would otherwise be an unhandled 'error' event that kills the process. The
 * statement that was running fails on its own and the pool drops the broken client on release.
 *
 * A statement that times out client-side (the server is paused or the network hangs) leaves the
 * connection mid-protocol, possibly inside a transaction: its socket is destroyed so that the pool
 * drops it rather than hand a half-finished session to the next request.
 */
function guardClient(client: pg.PoolClient, onError: (err: Error) => void): void {
  client.on('error', onError);
  const c = client as PgClientInternals;
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const res = query(...args);
    if (res && typeof (res as Promise<unknown>).then === 'function') {
      (res as Promise<unknown>).catch((err: Error) => {
        if (err?.message === 'Query read timeout') c.connection?.stream?.destroy();
      });
    }
    return res;
  };
}

/** pg-pool's error when no connection of a full pool came free in time. */
const POOL_BUSY_MESSAGE = 'timeout exceeded when trying to connect';
/** While the database refuses or ignores new connections: a new try every this often... */
const PROBE_INTERVAL_MS = 500;
/** ...with at most this many in flight (against a paused server each waits out the connect timeout). */
const MAX_PROBES = 3;

/**
 * A circuit breaker on opening connections. Once opening one failed because the database is
 * away, other requests are refused at once (503) instead of each waiting out the connect timeout,
 * and a few attempts probe the database, a new one every half second, so that one is always fresh
 * when the database comes back. Without it a paused server collects hundreds of dead connection
 * attempts in its listen queue, which it must work through when it wakes before it can answer.
 */
function breakOnUnavailable(pool: pg.Pool): void {
  const original = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  let openUntil = 0;
  let probes = 0;
  const refuse = () => Promise.reject(Object.assign(new Error(DATABASE_CIRCUIT_OPEN_MESSAGE), { code: 'ECONNREFUSED' }));
  (pool as unknown as { connect: (...args: unknown[]) => unknown }).connect = (...args: unknown[]) => {
    if (args.length > 0) return original(...args); // callback form: not used by us, passed through
    const open = openUntil > 0;
    if (open) {
      if (probes >= MAX_PROBES || Date.now() < openUntil) return refuse();
      probes++;
      openUntil = Date.now() + PROBE_INTERVAL_MS;
    }
    return (original() as Promise<pg.PoolClient>).then(
      (client) => {
        if (open) probes--;
        openUntil = 0;
        return client;
      },
      (err: unknown) => {
        if (open) probes--;
        // Waiting for a free connection of a busy pool is no sign of an outage; failing to open one is.
        if (isDatabaseUnavailable(err) && !(err as Error).message.includes(POOL_BUSY_MESSAGE)) {
          openUntil = Math.max(openUntil, Date.now() + PROBE_INTERVAL_MS);
        }
        throw err;
      },
    );
  };
}

export async function connectPostgres(
  url: string,
  poolSize = 10,
  timeouts: PostgresTimeouts = DEFAULT_POSTGRES_TIMEOUTS,
  onConnectionError: (err: Error) => void = () => {},
): Promise<DatabaseHandle> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: timeouts.acquireSeconds * 1000,
    statement_timeout: timeouts.statementSeconds * 1000,
    query_timeout: (timeouts.statementSeconds + 1) * 1000,
    keepAlive: true,
  });
  // An idle connection dropped by the server must not crash the process; the pool replaces it.
  pool.on('error', onConnectionError);
  pool.on('connect', (client) => guardClient(client, onConnectionError));
  breakOnUnavailable(pool);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    pool,
    kind: 'postgres',
    close: () => db.destroy(),
  };
}

export class DatabaseStartError extends Error {}

/** What a start-up wait needs: where to log, how long to try. */
export interface WaitOptions {
  timeoutSeconds: number;
  log: (fields: Record<string, unknown>, message: string) => void;
  /** Backoff between tries: 0.5 s doubling up to this many seconds. */
  maxDelaySeconds?: number;
}

/**
 * A patient start: tries `select 1` until the database answers or `timeoutSeconds` pass, logging
 * each failed try with host and database name (never the password). Errors that cannot heal by
 * waiting (bad password, unknown role) fail at once. Throws a DatabaseStartError naming DATABASE_URL.
 */
export async function waitForDatabase(pool: pg.Pool, url: string, opts: WaitOptions): Promise<void> {
  const target = describeDatabaseUrl(url);
  const started = Date.now();
  let delay = 500;
  for (let attempt = 1; ; attempt++) {
    try {
      const client = await pool.connect();
      try {
        await client.query('select 1');
      } finally {
        client.release();
      }
      if (attempt > 1) opts.log({ database: target, attempt }, 'database reachable');
      return;
    } catch (err) {
      const e = err as Error & { code?: string };
      // 3D000 (database does not exist yet) heals when a container's init script creates it.
      const transient = isDatabaseUnavailable(err) || e.code === '3D000';
      const left = opts.timeoutSeconds * 1000 - (Date.now() - started);
      if (!transient || left <= 0) {
        const why = transient
          ? `not reachable within ${opts.timeoutSeconds} s (DATABASE_CONNECT_TIMEOUT_SECONDS)`
          : 'refused the connection';
        throw new DatabaseStartError(`The database of DATABASE_URL (${target}) ${why}: ${e.message}`);
      }
      const wait = Math.min(delay, left);
      opts.log(
        { database: target, attempt, retryInSeconds: wait / 1000, err: { message: e.message, code: e.code } },
        'database not reachable yet; retrying',
      );
      await new Promise((r) => setTimeout(r, wait));
      delay = Math.min(delay * 2, (opts.maxDelaySeconds ?? 5) * 1000);
    }
  }
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
