import { LIMITS } from '@service/contract';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Clock } from '../db/clock.js';
import type { Database } from '../db/types.js';
import { ApiError } from '../http/api-error.js';

export interface RateLimitHit {
  count: number;
  /** Seconds to the next clock minute, from the database's clock. */
  retryAfter: number;
}

/**
 * Fixed clock-minute windows (bucket = floor(unix_seconds / 60)) counted with one upsert, the
 * bucket and Retry-After computed from the database clock so every API process agrees.
 */
export class RateLimiter {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly run: <R>(query: RawBuilder<R>) => Promise<{ rows: R[] }> = (q) => q.execute(db),
  ) {}

  /**
   * The upsert as SQL, so a caller can fold it into a larger statement (one round trip). With
   * `from`, the row is counted only when that clause yields a row (e.g. `from k where k.ok`), and
   * `key` may be an SQL expression over it.
   */
  hitSql(key: string | RawBuilder<string>, from?: RawBuilder<unknown>): RawBuilder<RateLimitHit> {
    const epoch = sql`floor(extract(epoch from ${this.clock.now()}))`;
    const source = from
      ? sql`select ${key}, (${epoch} / ${LIMITS.rateWindowSeconds})::int, 1 ${from}`
      : sql`values (${key}, (${epoch} / ${LIMITS.rateWindowSeconds})::int, 1)`;
    return sql<RateLimitHit>`insert into rate_limit_buckets (key, bucket, count)
      ${source}
      on conflict (key, bucket) do update set count = rate_limit_buckets.count + 1
      returning count, (${LIMITS.rateWindowSeconds} - (${epoch})::bigint % ${LIMITS.rateWindowSeconds})::int as "retryAfter"`;
  }

  async hit(key: string): Promise<RateLimitHit> {
    const { rows } = await this.run(this.hitSql(key));
    return rows[0]!;
  }

  /** Counts a request and throws 429 `rate_limited` once the bucket is over `limit`. */
  async enforce(key: string, limit: number): Promise<void> {
    assertWithinLimit(await this.hit(key), limit);
  }

  /** Drops buckets older than the previous minute. */
  async prune(): Promise<number> {
    const epoch = sql`floor(extract(epoch from ${this.clock.now()}))`;
    const res = await this.db
      .deleteFrom('rate_limit_buckets')
      .where('bucket', '<', sql<number>`(${epoch} / ${LIMITS.rateWindowSeconds})::int - 1`)
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}

export function assertWithinLimit(hit: RateLimitHit, limit: number): void {
  if (hit.count > limit) {
    throw new ApiError('rate_limited', 'Too many requests; retry after the indicated number of seconds', {
      retry_after: hit.retryAfter,
    });
  }
}

export type TenantLimitedRoute = keyof typeof LIMITS.perTenantPerMinute;

export const ipKey = (ip: string) => `ip:${ip}`;
const tenantKeyPrefix = (route: TenantLimitedRoute) => `tenant:${route}:`;
export const tenantKey = (route: TenantLimitedRoute, tenantId: string) => `${tenantKeyPrefix(route)}${tenantId}`;
/** `tenantKey` as SQL over a tenant id expression, for statements that count in the same round trip. */
export const tenantKeySql = (route: TenantLimitedRoute, tenantId: RawBuilder<unknown>): RawBuilder<string> =>
  sql<string>`${tenantKeyPrefix(route)} || ${tenantId}`;
