import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * Structured JSON logs. Redaction is a second line of defence: no code path logs keys, tokens,
 * names or images in the first place.
 */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    redact: {
      paths: ['authorization', 'headers.authorization', '*.authorization', 'token', 'key', 'secret', '*.secret'],
      censor: '[redacted]',
    },
  });
}
