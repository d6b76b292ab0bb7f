import { OVERVIEW_TOP_REASONS, type Mode, type OverviewDay, type OverviewPeriod, type OverviewResponse } from '@service/contract';
import { sql, type RawBuilder } from 'kysely';
import type { AppDeps } from '../app-deps.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Width of a time-to-verdict bucket (migration 005): bucket b holds (1.04^(b-1), 1.04^b] ms. */
export const LATENCY_BUCKET_RATIO = 1.04;
const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
/** PostgreSQL's count(*) is a bigint: node-postgres hands it over as a string. */
const n = (v: string | number | null | undefined) => Number(v ?? 0);

/**
 * The q-quantile (nearest rank) of a histogram of time-to-verdict buckets, in seconds to the
 * millisecond: interpolated within its bucket on the log scale, so within 2% of the exact value.
 */
export function bucketQuantile(buckets: { bucket: number; count: number }[], q: number): number | null {
  const total = buckets.reduce((a, b) => a + b.count, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(q * total));
  let before = 0;
  for (const { bucket, count } of buckets) {
    if (before + count >= rank) {
      // The rank-th of `count` values spread over the bucket (log scale): a lone value at its middle.
      const ms = LATENCY_BUCKET_RATIO ** (bucket - 1 + (rank - before - 0.5) / count);
      return Math.round(ms) / 1000;
    }
    before += count;
  }
  return null;
}

/** 00:00 UTC of the period's first day: the period is `days` UTC days, the last of them today. */
export function periodStart(now: Date, days: number): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - (days - 1) * DAY_MS);
}

type Row<T> = RawBuilder<T>;
interface DayRow {
  day: string;
  approved: number;
  review: number;
  rejected: number;
  failed: number;
}
interface ReasonRow {
  reason: string;
  count: string;
}
interface BucketRow {
  bucket: number;
  count: string;
}
interface BacklogRow {
  count: string;
  id: string | null;
  completed_at: Date | null;
}
interface DeliveriesRow {
  retrying: string;
  failed: string;
  last_at: Date | null;
  last_code: number | null;
  last_error: string | null;
}

/**
 * The Overview's statements, one per chart. Outcomes, reasons and times come from the rollups
 * the database keeps per tenant, mode and UTC day (migration 005), read by their primary keys;
 * the backlog and failing deliveries from partial indexes. None reads more than the tenant's mode
 * and period, however many verifications there are. Exported so a test can check each plan.
 */
export function overviewStatements(tenantId: string, mode: Mode, from: Date) {
  const fromDay = from.toISOString().slice(0, 10);
  const period = sql`tenant_id = ${tenantId} and mode = ${mode} and day >= ${fromDay}::date`;
  const waiting = sql`tenant_id = ${tenantId} and mode = ${mode} and status = 'completed' and verdict = 'review' and review_decision is null`;
  return {
    perDay: sql<DayRow>`
      select to_char(day, 'YYYY-MM-DD') as day, approved, review, rejected, failed
      from overview_days where ${period}` as Row<DayRow>,
    topReasons: sql<ReasonRow>`
      select reason, sum(count) as count from overview_day_reasons where ${period}
      group by reason having sum(count) > 0
      order by sum(count) desc, reason limit ${OVERVIEW_TOP_REASONS}` as Row<ReasonRow>,
    timeToVerdict: sql<BucketRow>`
      select bucket, sum(count) as count from overview_day_latency where ${period}
      group by bucket having sum(count) > 0 order by bucket` as Row<BucketRow>,
    reviewBacklog: sql<BacklogRow>`
      select (select count(*) from verifications where ${waiting}) as count, o.id, o.completed_at
      from (select 1) as one left join lateral (
        select id, completed_at from verifications where ${waiting} order by completed_at, id limit 1
      ) as o on true` as Row<BacklogRow>,
    // Retrying: pending after a failed attempt. Failed: gave up within the period. The latest of
    // them says when and how the receiver last failed.
    failingDeliveries: sql<DeliveriesRow>`
      with failing as (
        select status, updated_at, last_status_code, last_error from webhook_deliveries
        where tenant_id = ${tenantId} and status <> 'delivered'
          and ((status = 'pending' and attempts > 0) or (status = 'failed' and updated_at >= ${from}))
      ), latest as (select * from failing order by updated_at desc limit 1)
      select (select count(*) from failing where status = 'pending') as retrying,
        (select count(*) from failing where status = 'failed') as failed,
        (select updated_at from latest) as last_at,
        (select last_status_code from latest) as last_code,
        (select last_error from latest) as last_error` as Row<DeliveriesRow>,
  };
}

/**
 * The Overview's figures for one tenant, mode and period. The statements run at once, each on
 * its own pooled connection. `deliveries: false` (a reviewer) leaves the webhook figures out.
 */
export async function overview(
  deps: AppDeps,
  tenantId: string,
  mode: Mode,
  days: OverviewPeriod,
  opts: { deliveries: boolean },
): Promise<OverviewResponse> {
  const db = deps.db;
  // The database's clock (tests move it), read once so every chart shares one period.
  const { now } = (await sql<{ now: Date }>`select ${deps.clock.now()} as now`.execute(db)).rows[0]!;
  const from = periodStart(now, days);
  const q = overviewStatements(tenantId, mode, from);
  const [perDay, reasons, timing, backlog, deliveries] = await Promise.all([
    q.perDay.execute(db),
    q.topReasons.execute(db),
    q.timeToVerdict.execute(db),
    q.reviewBacklog.execute(db),
    opts.deliveries ? q.failingDeliveries.execute(db) : null,
  ]);

  const byDay = new Map(perDay.rows.map((r) => [r.day, r]));
  const series: OverviewDay[] = [];
  for (let t = from.getTime(); t <= now.getTime(); t += DAY_MS) {
    const date = new Date(t).toISOString().slice(0, 10);
    const r = byDay.get(date);
    series.push({ date, approved: n(r?.approved), review: n(r?.review), rejected: n(r?.rejected), failed: n(r?.failed) });
  }
  const totals = { approved: 0, review: 0, rejected: 0, failed: 0, total: 0 };
  for (const d of series) {
    totals.approved += d.approved;
    totals.review += d.review;
    totals.rejected += d.rejected;
    totals.failed += d.failed;
  }
  totals.total = totals.approved + totals.review + totals.rejected + totals.failed;

  const buckets = timing.rows.map((r) => ({ bucket: Number(r.bucket), count: n(r.count) }));
  const verdicts = buckets.reduce((a, b) => a + b.count, 0);
  const b = backlog.rows[0]!;
  const f = deliveries?.rows[0];
  return {
    mode,
    days,
    from: from.toISOString(),
    to: new Date(now).toISOString(),
    perDay: series,
    totals,
    topReasons: reasons.rows.map((r) => ({ reason: r.reason, count: n(r.count) })),
    timeToVerdict: { count: verdicts, medianSeconds: bucketQuantile(buckets, 0.5), p95Seconds: bucketQuantile(buckets, 0.95) },
    reviewBacklog: {
      count: n(b.count),
      oldest: b.id && b.completed_at ? { verificationId: b.id, waitingSince: iso(b.completed_at)! } : null,
    },
    failingDeliveries: f
      ? {
          retrying: n(f.retrying),
          failed: n(f.failed),
          lastFailureAt: iso(f.last_at),
          lastStatusCode: f.last_code,
          lastError: f.last_error,
        }
      : null,
  };
}
