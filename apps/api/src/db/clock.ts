import { sql, type RawBuilder } from 'kysely';

/**
 * The one clock every API process shares: the database's. Rate-limit buckets, slot and intent
 * expiry, and webhook schedules are all computed in SQL from `now()`, so several processes agree.
 * Tests move time with an offset instead of sleeping.
 */
export interface Clock {
  /** SQL expression of the current time (timestamptz). */
  now(): RawBuilder<Date>;
  /** Current offset in seconds added to the database clock (0 in production). */
  readonly offsetSeconds: number;
}

export const databaseClock: Clock = {
  now: () => sql<Date>`clock_timestamp()`,
  offsetSeconds: 0,
};

/** A database clock shifted by an adjustable offset, for tests of limits and expiries. */
export class OffsetClock implements Clock {
  offsetSeconds = 0;
  now(): RawBuilder<Date> {
    if (this.offsetSeconds === 0) return sql<Date>`clock_timestamp()`;
    return sql<Date>`(clock_timestamp() + make_interval(secs => ${this.offsetSeconds}))`;
  }
  advance(seconds: number): void {
    this.offsetSeconds += seconds;
  }
}
