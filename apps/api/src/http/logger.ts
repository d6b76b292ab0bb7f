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
  return pino({
    level,
    base: undefined,
    redact: {
      paths: ['authorization', 'headers.authorization', '*.authorization', 'token', 'key', 'secret', '*.secret'],
      censor: '[redacted]',
    },
  }, destination);
}
