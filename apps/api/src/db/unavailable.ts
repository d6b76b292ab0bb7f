/**
 * Which errors mean "the database is not answering right now" (refused, restarting, shutting
 * down, timed out, connection lost) as opposed to a bug or bad data. Those become 503
 * `backend_unavailable` for a client and a wait-and-retry for a worker, never a crash.
 */

/** Node socket errors of a connection that cannot be made or was cut. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
]);

/**
 * SQLSTATEs: class 08 (connection exception), 57P01-57P05 (admin/crash shutdown, cannot connect
 * now, idle session timeout), 57014 (statement timeout or cancel), 53300 (too many connections),
 * 40001/40P01 are not here: they are retried by the code that runs the transaction, if at all.
 */
function unavailableSqlState(code: string): boolean {
  return code.startsWith('08') || /^57P0[1-5]$/.test(code) || code === '57014' || code === '53300';
}

/** Our own pool's refusal while recent connection attempts failed (see connect.ts). */
export const DATABASE_CIRCUIT_OPEN_MESSAGE = 'Database unavailable: recent connection attempts failed';

/** Messages node-postgres and pg-pool use for a connection that broke or never came. */
const DRIVER_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end on the pool',
  DATABASE_CIRCUIT_OPEN_MESSAGE,
];

export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 4) return false;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown; context?: unknown };
  if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || (/^[0-9A-Z]{5}$/.test(e.code) && unavailableSqlState(e.code)))) {
    return true;
  }
  if (typeof e.message === 'string' && DRIVER_MESSAGES.some((m) => (e.message as string).includes(m))) return true;
  // AggregateError (several addresses refused) and wrapped causes.
  if (Array.isArray(e.errors) && e.errors.some((x) => isDatabaseUnavailable(x, depth + 1))) return true;
  // `context`: the value of an unhandled 'error' event (ERR_UNHANDLED_ERROR).
  return isDatabaseUnavailable(e.cause, depth + 1) || isDatabaseUnavailable(e.context, depth + 1);
}

/** `host:port/database` of a connection string, for logs and messages: never the user or password. */
export function describeDatabaseUrl(url: string): string {
  try {
    const u = new URL(url);
    const host = u.hostname || u.searchParams.get('host') || 'localhost';
    return `${host}:${u.port || '5432'}/${decodeURIComponent(u.pathname.replace(/^\//, '')) || '(default)'}`;
  } catch {
    return '(unparseable DATABASE_URL)';
  }
}

/** Seconds a client is told to wait (`Retry-After`) while the database is away. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
