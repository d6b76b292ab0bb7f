import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * Structured JSON logs. Redaction is a second line of defence: no code path logs keys, tokens,
 * names or images in the first place.
 */
export function createLogger(level: string): Logger {
  // Buffered, asynchronous writes: one syscall per 4 kB of logs instead of one per request line
  // (syscalls dominate the hot path). At most that much is lost if the process is killed hard;
  // a normal shutdown flushes (see main.ts).
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  return pino(
    {
      level,
      base: undefined,
      hooks: {
        // Warnings and errors are rare (the recurring ones are throttled) and are what an operator
        // looks for, live or after a crash: written out at once, not held in the buffer.
        logMethod(args, method, levelValue) {
          method.apply(this, args);
          if (levelValue >= 40) this.flush();
        },
      },
      redact: {
        paths: ['authorization', 'headers.authorization', '*.authorization', 'token', 'key', 'secret', '*.secret'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}

/**
 * Writes out whatever the logger still buffers, synchronously: for the last lines before a
 * process exits. Never throws (a logger that cannot write must not hide the exit's cause).
 */
export function flushLogSync(logger: Logger): void {
  const stream = (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] as { flushSync?: () => void } | undefined;
  try {
    stream?.flushSync?.();
  } catch {
    /* not open yet, or already closed */
  }
}
