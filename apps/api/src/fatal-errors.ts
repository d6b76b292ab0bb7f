import { isDatabaseUnavailable } from './db/unavailable.js';
import { flushLogSync, type Logger } from './http/logger.js';

/**
 * The process's last line of defence, installed by importing this module first in main.ts: ES
 * modules run in import order, so these handlers come before any a library installs when it is
 * loaded (tfjs's wasm backend rethrows from its own, which would hide the cause).
 *
 * A broken database connection surfacing here (a library's fire-and-forget statement) is logged
 * and survived: the pool and the queue recover by themselves. Anything else is a bug: its real
 * cause is logged and flushed, then the process exits 1 for its supervisor to restart it.
 */
let logger: Logger | null = null;

/** From now on fatal errors go to this logger (before it exists: stderr). */
export function setFatalLogger(l: Logger): void {
  logger = l;
}

function onFatal(kind: 'uncaughtException' | 'unhandledRejection') {
  return (err: unknown) => {
    const e = err instanceof Error ? err : new Error(String(err));
    if (isDatabaseUnavailable(err)) {
      logger?.warn({ err: { message: e.message }, kind }, 'database error outside a request; continuing');
      return;
    }
    if (logger) {
      logger.fatal({ err: { message: e.message, stack: e.stack }, kind }, 'unexpected error; exiting');
      flushLogSync(logger);
    }
    process.stderr.write(`${kind}: ${e.stack ?? e.message}\n`);
    process.exit(1);
  };
}

process.on('uncaughtException', onFatal('uncaughtException'));
process.on('unhandledRejection', onFatal('unhandledRejection'));
